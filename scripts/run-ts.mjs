// Runs a TypeScript entry (bench, eval, scratch work) by bundling it with esbuild first:
//   node scripts/run-ts.mjs bench/run.ts --pages 2000
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args…]');
  process.exit(2);
}
const outfile = path.join(root, '.bench', `${path.basename(entry, '.ts')}.mjs`);
const options = { absWorkingDir: root, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' };
await build({ ...options, entryPoints: [path.resolve(entry)], outfile });
// The ask catalog's worker thread, beside the bundle that loads it, so large wikis load as they do
// from dist/ (see src/ladder/catalog-pages.ts).
await build({ ...options, entryPoints: [path.join(root, 'src/ladder/catalog-worker.ts')], outfile: path.join(root, '.bench/catalog-worker.js') });
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
