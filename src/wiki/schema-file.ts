// `schema.md`: the categories, the bounded tag taxonomy, tag synonyms and numeric thresholds a
// wiki declares for itself (reference/upstream-format.md §1.3). Read leniently: it is prose, read
// as markdown (its `##` and `###` headings name the sections).
import { atxHeading } from '../markdown/blocks.js';
import { replaceCodeSpans } from '../markdown/code.js';

export interface WikiSchema {
  /** Category folder names the schema lists (`- \`concepts/\` — …`). */
  categories: string[];
  /** Tags of the taxonomy, without a leading `#`, lowercased. */
  tags: string[];
  /** `- a == b` pairs under a "Tag Synonyms" heading, lowercased. */
  synonyms: Array<[string, string]>;
  /** Lines of the "Numeric Thresholds" section, as written. */
  thresholds: string[];
}

export function parseSchema(text: string): WikiSchema {
  const schema: WikiSchema = { categories: [], tags: [], synonyms: [], thresholds: [] };
  let section = '';
  for (const raw of text.split('\n')) {
    const heading = atxHeading(raw);
    if (heading && (heading.level === 2 || heading.level === 3)) {
      section = heading.text.toLowerCase();
      continue;
    }
    const written = /^\s*[-*]\s+(.*)$/.exec(raw)?.[1]?.trim();
    if (!written) continue;
    // Names are read with code spans as their content: `- \`concepts/\` — …` names `concepts`.
    const item = replaceCodeSpans(written, (_span, content) => content);
    if (section.startsWith('categories')) {
      const name = /^([^\s/]+)\/?/.exec(item)?.[1];
      if (name) schema.categories.push(name);
    } else if (section.startsWith('tag synonyms')) {
      const pair = /^(\S+)\s*==\s*(\S+)$/.exec(item);
      if (pair) schema.synonyms.push([pair[1]!.toLowerCase(), pair[2]!.toLowerCase()]);
    } else if (section.startsWith('tag taxonomy')) {
      // `- #api, #cache` lists several; `- api — what it covers` names one, first.
      const tags = item.includes('#')
        ? [...item.matchAll(/#([\p{L}\p{N}][\p{L}\p{N}_-]*)/gu)].map((m) => m[1]!)
        : [/^([\p{L}\p{N}][\p{L}\p{N}_-]*)/u.exec(item)?.[1]];
      for (const tag of tags) if (tag) schema.tags.push(tag.toLowerCase());
    } else if (section.startsWith('numeric thresholds')) schema.thresholds.push(written);
  }
  return schema;
}
