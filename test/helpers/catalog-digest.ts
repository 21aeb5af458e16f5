// A script, not a module for tests to import: loads the ask catalog of the wiki in argv[2] and prints
// what a question can see of it as JSON (entries, acronyms, unreadable pages, and the relevance
// scores of the queries in argv[3..]). test/ladder/catalog-workers.test.ts bundles it with the
// catalog's worker beside it, so the load runs in real worker threads when the environment asks,
// and runs it with test/helpers/count-workers.cjs preloaded, which says each worker thread started.
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { scoresOf } from './catalog-scores.js';
import { loadFileTree } from '../../src/wiki/tree.js';

const [wiki, ...queries] = process.argv.slice(2);
const tree = await loadFileTree(wiki!);
const catalog = await loadCatalog(tree, DEFAULT_CONFIG);
console.log(
  JSON.stringify({
    entries: catalog.entries,
    acronyms: [...catalog.acronyms],
    unreadable: catalog.unreadable,
    scores: queries.map((query) => scoresOf(catalog, query)),
  }),
);
