// A worker thread of the catalog load (see catalog-pages.ts): reads its contiguous chunk of a disk
// wiki's pages and takes their facts with the code the sequential load runs, then posts them back,
// the bodies' word counts transferred rather than copied.
import { parentPort, workerData } from 'node:worker_threads';
import { MAX_PAGE_BYTES, withinPageLimit } from '../wiki/page-limit.js';
import { readWikiFile } from '../wiki/tree.js';
import { wikilinkResolver } from '../wiki/wikilinks.js';
import { readChunkFacts } from './page-facts.js';

/** What a catalog worker thread is started with. */
export interface CatalogWorkerData {
  /** The wiki's absolute root on disk. */
  root: string;
  /** The worker's chunk of the pages, wiki-relative. */
  paths: string[];
  /** Every page of the catalog, for the wikilink resolver (same order as the main thread's). */
  allPages: string[];
  /** The words the ranking does not index (see RelevanceCounter). */
  stopwords: string[];
}

const { root, paths, allPages, stopwords } = workerData as CatalogWorkerData;
// The page size limit as readPages applies it to any tree: not read past it, nor parsed.
const chunk = await readChunkFacts((visit) => {
  for (const path of paths) visit(path, withinPageLimit(readWikiFile(root, path, { maxBytes: MAX_PAGE_BYTES })));
}, wikilinkResolver(allPages), new Set(stopwords));
parentPort!.postMessage(chunk, chunk.facts.flatMap(([, facts]) => [facts.body.ids.buffer, facts.body.counts.buffer]));
