// What an index line says about a page, computed exactly as upstream's index builder does
// (reference/upstream-format.md §1.6): title or stem, `(q: x.xx) `, and the first body paragraph
// as upstream reads it (markdown/upstream-dialect.ts).
import { upstreamDescription } from '../markdown/upstream-dialect.js';
import { readFrontmatter } from './frontmatter.js';
import { type PyDict, isPyDict, pyFormatFixed2, pyStr, pyToFloat } from './python-compat.js';

export interface PageSummary {
  title: string;
  quality: string;
  description: string;
}

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
  return { title, quality: qualityMarker(frontmatter), description: upstreamDescription(text) };
}

function qualityMarker(frontmatter: PyDict): string {
  const quality = frontmatter.quality;
  if (!isPyDict(quality)) return '';
  const overall = quality.overall;
  if (overall === undefined || overall === null) return '';
  const asFloat = pyToFloat(overall);
  return asFloat === undefined ? `(q: ${pyStr(overall)}) ` : `(q: ${pyFormatFixed2(asFloat)}) `;
}
