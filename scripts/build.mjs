// Builds the two entry points with esbuild:
//   dist/cli.js      — the npm `bin` (dependencies stay external, installed by npm)
//   action/index.js  — the committed, self-contained Action bundle (node24 runs it; syntax for Node 20)
// and beside the code that loads the ask catalog in each, the catalog's worker thread
// (dist/chunks/catalog-worker.js, action/catalog-worker.js; see src/ladder/catalog-pages.ts).
// `--check` rebuilds the Action bundles in memory and fails when a committed file differs;
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
  // stopword's CommonJS build is one object of 60 languages; its ES module lets the bundle keep the
  // seven lists the ladder uses (about 280 KB less in each bundle).
  alias: { stopword: 'stopword/dist/stopword.esm.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

const catalogWorker = path.join(root, 'src/ladder/catalog-worker.ts');

/** The Action's bundles, by path relative to the project root → text (null without src/action.ts). */
async function buildAction(write) {
  const entry = path.join(root, 'src/action.ts');
  if (!existsSync(entry)) return null;
  const result = await build({
    ...common,
    entryPoints: [
      { in: entry, out: 'index' },
      { in: catalogWorker, out: 'catalog-worker' },
    ],
    banner,
    write: false,
    outdir: path.join(root, 'action'),
  });
  const bundles = new Map(result.outputFiles.map((file) => [path.relative(root, file.path), file.text]));
  if (write) {
    await mkdir(path.join(root, 'action'), { recursive: true });
    for (const [file, text] of bundles) await writeFile(path.join(root, file), text);
  }
  return bundles;
}

if (check) {
  const fresh = await buildAction(false);
  for (const [file, text] of fresh ?? []) {
    const committed = existsSync(path.join(root, file)) ? await readFile(path.join(root, file), 'utf8') : '';
    if (committed !== text) {
      console.error(`${file} is stale: run \`npm run build\` and commit the result.`);
      process.exit(1);
    }
  }
  console.log('The Action bundles match a fresh build.');
} else {
  await rm(path.join(root, 'dist'), { recursive: true, force: true });
  // The package's dependencies stay external (npm installs them); devDependencies used at run
  // time are bundled: @github/copilot-sdk, so `npm install wiki-steward` never pulls its native
  // parts and 113 MB platform runtime, which the Copilot CLI one installs makes unnecessary.
  const { dependencies } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  await build({
    ...common,
    entryPoints: [path.join(root, 'src/cli.ts')],
    external: Object.keys(dependencies),
    banner,
    // Code splitting keeps each command's dependencies out of start-up (the hook runs on every commit).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: path.join(root, 'dist'),
  });
  // Its own bundle, not an entry of the split build above (whose shared chunks would change what
  // cli.js loads at start-up), in chunks/ beside the ask command's code that resolves it.
  await build({ ...common, entryPoints: [catalogWorker], packages: 'external', outfile: path.join(root, 'dist/chunks/catalog-worker.js') });
  await chmod(path.join(root, 'dist/cli.js'), 0o755);
  if (!cliOnly) await buildAction(true);
}
