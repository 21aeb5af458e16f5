// What an index line says about a page, computed exactly as upstream's index builder does
// (reference/upstream-format.md §1.6): title or stem, `(q: x.xx) `, and the first body paragraph.
import { readFrontmatter } from './frontmatter.js';
import { type PyDict, codePointLength, isPyDict, pyFormatFixed2, pyStr, pyStrip, pyToFloat } from './python-compat.js';

export interface PageSummary {
  title: string;
  quality: string;
  description: string;
}

const DESCRIPTION_LIMIT = 200;

export const fileStem = (relPath: string): string => {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return name.endsWith('.md') ? name.slice(0, -3) : name;
};

/** Frontmatter as upstream's builder sees it: an empty mapping when absent or unparseable. */
export function builderFrontmatter(text: string): PyDict {
  const fm = readFrontmatter(text);
  return fm.kind === 'ok' ? fm.data : (Object.create(null) as PyDict);
}

export function summarizePage(relPath: string, text: string, frontmatter: PyDict = builderFrontmatter(text)): PageSummary {
  const title = 'title' in frontmatter ? pyStr(frontmatter.title!) : fileStem(relPath);
  return { title, quality: qualityMarker(frontmatter), description: firstParagraph(text) };
}

function qualityMarker(frontmatter: PyDict): string {
  const quality = frontmatter.quality;
  if (!isPyDict(quality)) return '';
  const overall = quality.overall;
  if (overall === undefined || overall === null) return '';
  const asFloat = pyToFloat(overall);
  return asFloat === undefined ? `(q: ${pyStr(overall)}) ` : `(q: ${pyFormatFixed2(asFloat)}) `;
}

/** The first paragraph after the frontmatter, joined to one line and cut at 200 code points. */
export function firstParagraph(text: string): string {
  const close = text.indexOf('\n---\n', 4);
  if (close < 0) return '';
  const body = pyStrip(text.slice(close + 5));
  const blank = body.indexOf('\n\n');
  const paragraph = pyStrip((blank < 0 ? body : body.slice(0, blank)).replaceAll('\n', ' '));
  if (codePointLength(paragraph) <= DESCRIPTION_LIMIT) return paragraph;
  return `${Array.from(paragraph).slice(0, DESCRIPTION_LIMIT).join('')}...`;
}
