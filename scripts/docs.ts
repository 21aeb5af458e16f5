// `npm run docs`: rewrites the generated parts of README.md and docs/ (see docs-sections.ts).
// `npm run docs -- --check` changes nothing and exits 1 when a part is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { StaleDocsError, staleDocs } from './docs-sections.js';

const root = process.cwd();
const check = process.argv.includes('--check');
try {
  const stale = staleDocs(root);
  for (const { file, text } of stale) {
    if (check) console.error(`${file}: generated parts are stale; run npm run docs`);
    else {
      writeFileSync(path.join(root, file), text);
      console.log(`${file}: generated parts rewritten`);
    }
  }
  if (stale.length === 0) console.log('docs: every generated part is current');
  process.exitCode = check && stale.length > 0 ? 1 : 0;
} catch (error) {
  if (!(error instanceof StaleDocsError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}
