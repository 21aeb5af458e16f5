// File names for captures: upstream's slugify (lowercase, anything outside a-z0-9 becomes '-',
// runs collapsed, ends trimmed), after folding accents so "Héllo" reads "hello", cut to a sane
// length at a word boundary; a question with no Latin letters at all still gets a name.
import { createHash } from 'node:crypto';

const MAX_SLUG = 60;

export function slugify(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  let slug = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  if (slug.length > MAX_SLUG) slug = slug.slice(0, MAX_SLUG).replace(/-[^-]*$/, '') || slug.slice(0, MAX_SLUG);
  return slug;
}

/** The slug, or `question-<hash>` when the text has nothing slugify keeps (CJK, emoji). */
export function captureSlug(question: string): string {
  return slugify(question) || `question-${createHash('sha1').update(question).digest('hex').slice(0, 8)}`;
}
