// `npm run bench`: bundles bench/run.ts (and the wiki generator it imports) into .bench/run.mjs
// with esbuild, then runs it with this process's arguments, e.g.
//   npm run bench -- --pages 2000 --only validate,hook
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outfile = path.join(root, '.bench/run.mjs');

await build({
  absWorkingDir: root,
  entryPoints: [path.join(root, 'bench/run.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile,
  logLevel: 'warning',
});

await import(pathToFileURL(outfile).href);
