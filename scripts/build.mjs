// Builds the two entry points with esbuild:
//   dist/cli.js      — the npm `bin` (dependencies stay external, installed by npm)
//   action/index.js  — the committed, self-contained Action bundle (node24 runs it; syntax for Node 20)
// `--check` rebuilds the Action bundle in memory and fails when the committed file differs;
// `--cli` builds dist/ alone.
import { build } from 'esbuild';
import { readFile, writeFile, mkdir, chmod, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes('--check');
// `--cli`: dist/ only, as `prepare` runs it when npm installs the package from its repository (the
// committed Action bundle is never rewritten by an install).
const cliOnly = process.argv.includes('--cli');

// ESM bundles of CommonJS dependencies call require(); give them one.
const banner = {
  js: "import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);",
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

async function buildAction(write) {
  const entry = path.join(root, 'src/action.ts');
  if (!existsSync(entry)) return null;
  const result = await build({ ...common, entryPoints: [entry], banner, write: false, outfile: path.join(root, 'action/index.js') });
  const text = result.outputFiles[0].text;
  if (write) {
    await mkdir(path.join(root, 'action'), { recursive: true });
    await writeFile(path.join(root, 'action/index.js'), text);
  }
  return text;
}

if (check) {
  const fresh = await buildAction(false);
  if (fresh !== null) {
    const committed = existsSync(path.join(root, 'action/index.js')) ? await readFile(path.join(root, 'action/index.js'), 'utf8') : '';
    if (committed !== fresh) {
      console.error('action/index.js is stale: run `npm run build` and commit the result.');
      process.exit(1);
    }
  }
  console.log('action/index.js matches a fresh build.');
} else {
  await rm(path.join(root, 'dist'), { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: [path.join(root, 'src/cli.ts')],
    packages: 'external',
    // Code splitting keeps each command's dependencies out of start-up (the hook runs on every commit).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: path.join(root, 'dist'),
  });
  await chmod(path.join(root, 'dist/cli.js'), 0o755);
  if (!cliOnly) await buildAction(true);
}
