// A worker thread of the catalog load (see catalog-pages.ts): reads its contiguous chunk of a disk
// wiki's pages and takes their facts with the code the sequential load runs, then posts them back,
// the bodies' word counts transferred rather than copied.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { readPages } from '../wiki/page-limit.js';
import { diskReader } from '../wiki/tree.js';
import { wikilinkResolver } from '../wiki/wikilinks.js';
import { readChunkFacts } from './page-facts.js';

/** What a catalog worker thread is started with. */
export interface CatalogWorkerData {
  /** The wiki's absolute root on disk. */
  root: string;
  /** The worker's chunk of the pages, wiki-relative. */
  paths: readonly string[];
  /** Every page of the catalog, for the wikilink resolver (same order as the main thread's). */
  allPages: readonly string[];
  /** The words the ranking does not index (see RelevanceCounter). */
  stopwords: readonly string[];
}

const { root, paths, allPages, stopwords } = workerData as CatalogWorkerData;
// Read as the main thread reads a disk tree, with the page size limit: the wiki is not walked again.
const chunk = await readChunkFacts(
  (visit) => readPages({ readEach: diskReader(root) }, paths, visit),
  wikilinkResolver(allPages, { wikiName: path.basename(root) }),
  new Set(stopwords),
);
parentPort!.postMessage(
  chunk,
  chunk.facts.flatMap(([, facts]) => [facts.body.ids.buffer, facts.body.counts.buffer]),
);
