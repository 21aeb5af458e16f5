// Keeps @github/copilot-sdk's platform runtimes out of package-lock.json. The SDK lists a 113 MB
// runtime package per platform as optional dependencies; wiki-steward never uses them (it runs the
// Copilot CLI the workflow installs), and registries that do not carry every platform's package
// leave the lock out of sync for `npm ci`. Run after any `npm install`: node scripts/trim-lock.mjs
// (test/package/lockfile.test.ts fails until the lock is trimmed).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = 'node_modules/@github/copilot-sdk';
const RUNTIME_PREFIX = `${SDK}-`;

const file = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'package-lock.json');
const lock = JSON.parse(await readFile(file, 'utf8'));
delete lock.packages[SDK]?.optionalDependencies;
for (const key of Object.keys(lock.packages)) if (key.startsWith(RUNTIME_PREFIX)) delete lock.packages[key];
await writeFile(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log('package-lock.json: @github/copilot-sdk without its platform runtimes');
