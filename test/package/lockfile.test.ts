// The lockfile `npm ci` installs from: @github/copilot-sdk without its per-platform runtime
// packages (113 MB each, never used: the Copilot CLI the workflow installs is what runs). A plain
// `npm install` puts them back; `node scripts/trim-lock.mjs` takes them out again.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SDK = 'node_modules/@github/copilot-sdk';
const RUNTIME_PREFIX = `${SDK}-`;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('package-lock.json', () => {
  it('holds @github/copilot-sdk without its platform runtimes (run `node scripts/trim-lock.mjs` after `npm install`)', async () => {
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: object }> };
    expect(lock.packages[SDK], 'the SDK is locked').toBeDefined();
    expect(lock.packages[SDK]!.optionalDependencies).toBeUndefined();
    expect(Object.keys(lock.packages).filter((key) => key.startsWith(RUNTIME_PREFIX))).toEqual([]);
  });
});
