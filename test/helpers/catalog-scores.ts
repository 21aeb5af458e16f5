// The relevance scores a query's words give, as [entry, score] pairs in entry order: what the
// catalog tests compare between loads.
import type { WikiCatalog } from '../../src/ladder/catalog.js';
import { foldedWords } from '../../src/ladder/text-match.js';

export function scoresOf(catalog: Pick<WikiCatalog, 'relevance'>, query: string): Array<[entry: number, score: number]> {
  const scores = catalog.relevance.score(new Map(foldedWords(query).map((w) => [w, 1])));
  const pairs = Array.from({ length: scores.size }, (_, k): [number, number] => [scores.page(k), scores.of(scores.page(k))]);
  return pairs.sort((a, b) => a[0] - b[0]);
}
