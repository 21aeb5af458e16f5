// A worker thread of the catalog load (see catalog-pages.ts): reads its contiguous chunk of a disk
// wiki's pages and takes their facts with the code the sequential load runs, then posts them back,
// the bodies' word counts transferred rather than copied.
import { parentPort, workerData } from 'node:worker_threads';
import { readPages } from '../wiki/page-limit.js';
import { diskReader } from '../wiki/tree.js';
import { readChunkFacts } from './page-facts.js';

/** What a catalog worker thread is started with. */
export interface CatalogWorkerData {
  /** The wiki's absolute root on disk. */
  root: string;
  /** The worker's chunk of the pages, wiki-relative. */
  paths: readonly string[];
  /** The words the ranking does not index (see RelevanceCounter). */
  stopwords: readonly string[];
}

const { root, paths, stopwords } = workerData as CatalogWorkerData;
// Read as the main thread reads a disk tree, with the page size limit: the wiki is not walked again.
const chunk = await readChunkFacts((visit) => readPages({ readEach: diskReader(root) }, paths, visit), new Set(stopwords));
parentPort!.postMessage(
  chunk,
  chunk.pages.flatMap((page) => ('facts' in page ? [page.facts.body.ids.buffer, page.facts.body.counts.buffer] : [])),
);
