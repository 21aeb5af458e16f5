// Builds the two entry points with esbuild:
//   dist/cli.js      — the npm `bin`, split by command, its dependencies bundled in
//   action/index.js  — the committed, self-contained Action bundle (node24 runs it; syntax for Node 20)
// and beside the code that loads the ask catalog in each, the catalog's worker thread
// (dist/chunks/catalog-worker.js, action/catalog-worker.js; see src/ladder/catalog-pages.ts), and
// the licence notices of the packages each bundles (THIRD_PARTY_NOTICES.txt).
// `--check` rebuilds the Action bundles in memory and fails when a committed file differs;
// `--cli` builds dist/ alone.
import { build } from 'esbuild';
import { readFile, writeFile, mkdir, chmod, rm } from 'node:fs/promises';
import { thirdPartyNotices } from './third-party-notices.mjs';
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

// gray-matter loads js-yaml 3 at start for its default `yaml` engine, which wiki-steward always
// replaces (src/wiki/frontmatter.ts), and js-yaml 3 loads esprima, a JavaScript parser, where it can
// find one, for the `!!js/function` type. Neither is ever used: gray-matter gets a stand-in that
// refuses, and a start does not parse them (about 15 ms of every command's start-up).
const grayMatterYamlStandIn = {
  name: 'gray-matter-yaml-stand-in',
  setup(build) {
    const standIn = path.join(root, 'scripts/gray-matter-yaml-stand-in.cjs');
    build.onResolve({ filter: /^js-yaml$/ }, ({ importer }) => (importer.includes(`${path.sep}gray-matter${path.sep}`) ? { path: standIn } : undefined));
  },
};

const common = {
  plugins: [grayMatterYamlStandIn],
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
  // The packages a bundle holds, for its licence notices.
  metafile: true,
};

const NOTICES = 'THIRD_PARTY_NOTICES.txt';

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
  bundles.set(path.join('action', NOTICES), await thirdPartyNotices(root, [result.metafile]));
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
  // Dependencies are bundled as the Action's are: resolving and reading the files of some twenty
  // packages in node_modules on every start was a sixth of a warm `ask` (about 40 ms), and the
  // package installs nothing but itself. @github/copilot-sdk's native parts and 113 MB platform
  // runtime are never pulled: the Copilot CLI the user installs brings its own.
  const cli = await build({
    ...common,
    entryPoints: [path.join(root, 'src/cli.ts')],
    banner,
    // Code splitting keeps each command's dependencies out of start-up (the hook runs on every commit).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: path.join(root, 'dist'),
  });
  // Its own bundle, not an entry of the split build above (whose shared chunks would change what
  // cli.js loads at start-up), in chunks/ beside the ask command's code that resolves it.
  const worker = await build({ ...common, entryPoints: [catalogWorker], banner, outfile: path.join(root, 'dist/chunks/catalog-worker.js') });
  await writeFile(path.join(root, 'dist', NOTICES), await thirdPartyNotices(root, [cli.metafile, worker.metafile]));
  await chmod(path.join(root, 'dist/cli.js'), 0o755);
  if (!cliOnly) await buildAction(true);
}
