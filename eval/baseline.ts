// The stock baseline our ranking is compared with: lunr 2.3.9 (BM25) with its DEFAULT settings
// (no boosts, default pipelines: trimmer, stop words and stemmer at index time, stemmer at query
// time). It indexes the same pages our ladder ranks — every catalog entry (index files are not
// entries) with its title, summary and tags as the catalog has them, and the page's text without
// its frontmatter as the body — and is asked every word of the question as an optional term.
import lunr from 'lunr';
import type { WikiCatalog } from '../src/ladder/catalog.js';
import { bodyOf } from '../src/markdown/body.js';

export interface Baseline {
  /** Pages for the question, best first (every page matching any term). */
  rank(question: string): string[];
  buildMs: number;
}

interface BaselineDoc {
  path: string;
  title: string;
  summary: string;
  tags: string[];
  body: string;
}

export async function buildBaseline(catalog: WikiCatalog): Promise<Baseline> {
  const started = performance.now();
  const texts = await catalog.readPages(catalog.entries.map((e) => e.path));
  const docs: BaselineDoc[] = catalog.entries.map((e) => ({
    path: e.path,
    title: e.title,
    summary: e.summary,
    tags: e.tags,
    // The body as the catalog reads it.
    body: bodyOf(texts.get(e.path) ?? ''),
  }));
  const idx = lunr(function () {
    this.ref('path');
    this.field('title');
    this.field('summary');
    this.field('tags');
    this.field('body');
    for (const d of docs) this.add(d);
  });
  const buildMs = Math.round(performance.now() - started);
  return {
    buildMs,
    rank(question) {
      // lunr's own tokenizer and trimmer; each term then goes through the search pipeline (stemmer).
      const results = idx.query((q) => {
        for (const token of lunr.tokenizer(question)) {
          const t = lunr.trimmer(token).toString();
          if (t) q.term(t, { presence: lunr.Query.presence.OPTIONAL });
        }
      });
      return results.map((r) => r.ref);
    },
  };
}
