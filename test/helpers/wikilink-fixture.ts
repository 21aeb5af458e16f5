// A small wiki whose pages link each other with Obsidian `[[wikilinks]]` only, for the digest's
// orphans and the catalog's link texts.
import { makeWiki, page } from './wiki-fixture.js';

export const wikilinkWiki = (): Promise<string> =>
  makeWiki({
    'concepts/hub.md': page({
      title: 'Hub',
      type: 'concepts',
      body: [
        'See [[rate-limiting]], [[concepts/retry-budget|how often to retry]] and [[Backoff#Jitter|jittered backoff]].',
        'Also [[nowhere]], [[dup]] (two pages share that stem) and [[thing]] (the shorter path wins).',
        'In code: `[[cache]]` is not a link, nor is this:',
        '',
        '```',
        '[[cache|cached things]]',
        '```',
      ].join('\n'),
    }),
    'concepts/rate-limiting.md': page({ title: 'Rate limiting', type: 'concepts', body: 'Back to [[hub]].' }),
    'concepts/retry-budget.md': page({ title: 'Retry budget', type: 'concepts' }),
    'concepts/backoff.md': page({ title: 'Backoff', type: 'concepts' }),
    'concepts/cache.md': page({ title: 'Cache', type: 'concepts' }),
    'concepts/dup.md': page({ title: 'Dup one', type: 'concepts' }),
    'how-to/dup.md': page({ title: 'Dup two', type: 'how-to' }),
    'how-to/thing.md': page({ title: 'Thing', type: 'how-to' }),
    'how-to/deeper/thing.md': page({ title: 'Deeper thing', type: 'how-to' }),
  });
