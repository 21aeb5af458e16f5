// The digest's orphans count `[[wikilinks]]` between pages as links.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { wikiHealth } from '../../src/digest/wiki-health.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { wikilinkWiki } from '../helpers/wikilink-fixture.js';

describe('wiki health with wikilinks', () => {
  it('a page linked only by [[…]] is not an orphan; unresolvable, ambiguous and code wikilinks link nothing', async () => {
    const health = await wikiHealth(await openWikiLayout(await wikilinkWiki(), DEFAULT_CONFIG), { now: new Date('2026-06-01T00:00:00Z'), staleDays: 180 });
    expect(health.orphans.sort()).toEqual(['concepts/cache.md', 'concepts/dup.md', 'how-to/deeper/thing.md', 'how-to/dup.md']);
  });
});
