// Pages cut into passages (paragraphs, list runs, code blocks) that remember their line numbers,
// so a quote can always be cited at the lines it came from.
import { type FoldedText, type TermPattern, containsWords, foldText } from '../ladder/text-match.js';

export interface Passage {
  path: string;
  /** 1-based first and last line in the page file. */
  start: number;
  end: number;
  lines: string[];
  /** The nearest heading above, for context. */
  heading: string | undefined;
  folded: FoldedText;
}

/** The page body (after the frontmatter) cut at blank lines; headings are context, not passages. */
export function splitPassages(path: string, text: string): Passage[] {
  const lines = text.split('\n');
  let first = 0;
  if (lines[0] === '---') {
    const close = lines.indexOf('---', 1);
    if (close > 0) first = close + 1;
  }
  const passages: Passage[] = [];
  let heading: string | undefined;
  let block: { start: number; lines: string[] } | undefined;
  let inFence = false;
  const flush = () => {
    if (block && block.lines.some((l) => l.trim() !== '')) {
      passages.push({
        path,
        start: block.start + 1,
        end: block.start + block.lines.length,
        lines: block.lines,
        heading,
        folded: foldText(withoutLinkTargets(block.lines.join('\n'))),
      });
    }
    block = undefined;
  };
  for (let i = first; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```') || line.startsWith('~~~')) inFence = !inFence;
    if (!inFence && /^#{1,6}\s/.test(line)) {
      flush();
      heading = line.replace(/^#+\s*/, '').trim();
      continue;
    }
    if (!inFence && line.trim() === '') {
      flush();
      continue;
    }
    if (!block) block = { start: i, lines: [] };
    block.lines.push(line);
  }
  flush();
  return passages;
}

/** `[text](target)` → `text`: a link's words count, its file name does not. */
export const withoutLinkTargets = (text: string): string => text.replace(/\]\([^)\s]*\)/g, ']');

/** A term is in a text when its words appear whole (folded), or, for identifiers, its exact spelling does. */
export function textHasTerm(folded: FoldedText, pattern: TermPattern, strict: boolean): boolean {
  return containsWords(folded, pattern) || (strict && pattern.raw.length > 1 && folded.raw.includes(pattern.raw));
}

/** Whitespace folded to single spaces, for comparing quotes with page text. */
export const squashSpace = (s: string): string => s.replace(/\s+/g, ' ').trim();
