// Reads the catalog's pages and takes their facts: on a large wiki on disk, in worker threads (each
// a contiguous chunk, with the main thread reading the first), else here in one pass. The chunks
// come back in page order, each with its own vocabulary and acronyms for the catalog to merge in
// that order, which gives what one sequential pass gives.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readPages } from '../wiki/page-limit.js';
import { type WikiTree } from '../wiki/tree.js';
import type { CatalogWorkerData } from './catalog-worker.js';
import { type ChunkFacts, readChunkFacts } from './page-facts.js';
import { builtinStopwords } from './signal-terms.js';

/**
 * Pages per chunk at least, so a worker's start-up (~0.1–0.3 s to load its bundle, then cold code)
 * is paid for: workers start at two chunks' worth, 4,000 pages. Measured on two (shared) cores, one
 * worker, the first load in a fresh process, medians of 3, one pass → in parallel: 2,000 pages
 * 0.70 s → 0.69 s (nothing saved); 4,000 pages 1.37 s → 1.27 s; 10,000 pages 2.9–3.2 s → 2.5–2.9 s.
 */
const MIN_PAGES_PER_CHUNK = 2000;
/**
 * Chunks at most (the main thread's included), whatever the core count: each worker costs its
 * start-up, a copy of the page list and a vocabulary to merge (measured on two cores only).
 */
const MAX_CHUNKS = 4;
/**
 * The main thread's chunk against a worker's: a worker spends its first 0.2–0.3 s starting (loading
 * its bundle) and then runs cold code, while the main thread reads at once. Measured on 10,000
 * pages with one worker: equal chunks left the main thread waiting ~0.4 s for the worker; half a
 * chunk more ~0.06 s.
 */
const MAIN_THREAD_SHARE = 1.5;
/**
 * Overrides the choice: 0 never starts workers; N starts N (the main thread still reads a chunk),
 * at most MAX_CHUNKS - 1 and never more than pages to read; anything but a whole number is ignored.
 */
const WORKERS_ENV = 'WIKI_STEWARD_CATALOG_WORKERS';

/**
 * The worker's bundle, built beside the bundle that holds this module (dist/chunks/, action/,
 * .bench/). Running from src/ (vitest) there is none, and the load stays on this thread.
 */
const WORKER_URL = new URL('./catalog-worker.js', import.meta.url);

/** The pages' facts, chunk by chunk in page order. */
export async function readCatalogPages(tree: WikiTree, pages: readonly string[]): Promise<ChunkFacts[]> {
  const workers = workerCount(tree, pages.length);
  const readHere = (paths: readonly string[]) => readChunkFacts((visit) => readPages(tree, paths, visit), builtinStopwords());
  if (workers === 0) return [await readHere(pages)];
  const mainShare = Math.round((pages.length * MAIN_THREAD_SHARE) / (workers + MAIN_THREAD_SHARE));
  const stopwords = [...builtinStopwords()];
  // Workers start first; the main thread reads the first chunk while they read the rest.
  const pending = splitInto(pages.slice(mainShare), workers).map((paths) =>
    inWorker({ root: tree.root, paths, stopwords }).catch((error: unknown) => {
      process.emitWarning(`catalog worker failed (${(error as Error).message}); reading its ${paths.length} pages on the main thread`);
      return readHere(paths);
    }),
  );
  const first = await readHere(pages.slice(0, mainShare));
  return [first, ...(await Promise.all(pending))];
}

/** How many workers to start: none for a tree not read from disk, a small wiki, or no worker bundle. */
function workerCount(tree: WikiTree, pages: number): number {
  if (!tree.onDisk) return 0;
  const forced = process.env[WORKERS_ENV];
  const wanted = workersFor(pages, os.availableParallelism(), forced);
  if (wanted === 0) return 0;
  if (!existsSync(fileURLToPath(WORKER_URL))) {
    if (forced !== undefined)
      process.emitWarning(`${WORKERS_ENV}=${forced}, but there is no catalog worker at ${fileURLToPath(WORKER_URL)}: reading pages on the main thread`);
    return 0;
  }
  return wanted;
}

/**
 * The workers wanted for `pages` pages on `cores` cores: one chunk per core (the main thread's
 * included), at most MAX_CHUNKS, each of MIN_PAGES_PER_CHUNK pages or more; or `forced` (the
 * environment's whole number), capped at MAX_CHUNKS - 1 and at one page per thread.
 */
export function workersFor(pages: number, cores: number, forced: string | undefined): number {
  const given = forced?.trim();
  if (given !== undefined && /^\d+$/.test(given)) return Math.min(Number(given), MAX_CHUNKS - 1, Math.max(0, pages - 1));
  return Math.max(0, Math.min(cores, MAX_CHUNKS, Math.floor(pages / MIN_PAGES_PER_CHUNK)) - 1);
}

/** `count` contiguous chunks of near-equal size, in order. */
function splitInto<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / count);
  return Array.from({ length: count }, (_, i) => items.slice(i * size, (i + 1) * size)).filter((chunk) => chunk.length > 0);
}

function inWorker(data: CatalogWorkerData): Promise<ChunkFacts> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: data });
    worker.once('message', resolve);
    worker.once('error', reject);
    // Exiting without a message (e.g. killed, out of memory) is a failure too; after one, a no-op.
    worker.once('exit', (code) => reject(new Error(`exited with code ${code} before reporting`)));
  });
}
