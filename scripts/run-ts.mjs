// Runs a TypeScript entry (bench, eval, scratch work) by bundling it with esbuild first:
//   node scripts/run-ts.mjs bench/run.ts --pages 2000
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
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
// The test helpers find the project from their own file (`import.meta.url`, `import.meta.dirname`:
// test/action/harness.ts's projectRoot, …); bundled, that would be the bundle's, so in test/ both
// are the source file's. Elsewhere they stay the bundle's (src/ finds its worker beside the bundle).
const testFilesOwnLocation = {
  name: 'test-files-own-location',
  setup(b) {
    b.onLoad({ filter: new RegExp(`^${path.join(root, 'test').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\/].*\\.ts$`) }, async (args) => ({
      loader: 'ts',
      contents: (await readFile(args.path, 'utf8'))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))),
    }));
  },
};
await build({ ...options, entryPoints: [path.resolve(entry)], outfile, plugins: [testFilesOwnLocation] });
// The ask catalog's worker thread, beside the bundle that loads it, so large wikis load as they do
// from dist/ (see src/ladder/catalog-pages.ts).
await build({ ...options, entryPoints: [path.join(root, 'src/ladder/catalog-worker.ts')], outfile: path.join(root, '.bench/catalog-worker.js') });
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
