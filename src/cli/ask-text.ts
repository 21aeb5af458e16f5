// `ask --format text`: the answer and a few lines of trace for a terminal, no HTML, every line
// wrapped to the terminal's width.
import type { Trace } from '../answer/trace.js';

/** The width when stdout is not a terminal (a pipe, a file, a test). */
export const DEFAULT_WIDTH = 100;
const TOP_CANDIDATES = 5;

/** The answer, then the trace's gist: branches and outcome, the best candidates, pages read, what is missing. */
export function renderAskText(trace: Trace, width: number = DEFAULT_WIDTH): string {
  const lines = [trace.answer, '', 'How this was answered:', ...traceGist(trace).map((l) => `- ${l}`)];
  return lines
    .flatMap((l) => l.split('\n'))
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}

function traceGist(trace: Trace): string[] {
  const seed = trace.seed_branch && trace.seed_branch !== trace.branch ? ` (the seed's gate alone: ${trace.seed_branch})` : '';
  const top = trace.candidates.slice(0, TOP_CANDIDATES).map((c) => c.path);
  const more = trace.candidates.length - top.length;
  return [
    `branch ${trace.branch}${seed}, outcome ${trace.outcome} (answerer: ${trace.answerer})`,
    `candidates (${trace.candidates.length}, best first): ${top.length === 0 ? 'none' : `${top.join(', ')}${more > 0 ? ` and ${more} more` : ''}`}`,
    `pages read: ${trace.read.length}${trace.unread.length > 0 ? ` (${trace.unread.length} not read)` : ''}`,
    `missing: ${trace.missing.length === 0 ? 'nothing' : trace.missing.join(', ')}`,
    'the full trace: --format json',
  ];
}

const HANGING = /^(\s*(?:(?:[-*+]|\d+[.)])\s+)?)/;
const charCount = (s: string): number => [...s].length;

/**
 * One line as lines of at most `width` characters, broken at spaces; list items continue under
 * their text, and a word longer than the line is cut.
 */
export function wrapLine(line: string, width: number): string[] {
  const max = Math.max(1, Math.floor(width));
  if (charCount(line) <= max) return [line];
  const lead = HANGING.exec(line)![1]!;
  const indent = charCount(lead) < max / 2 ? ' '.repeat(charCount(lead)) : '';
  const out: string[] = [];
  let current = lead.length < line.length ? lead : '';
  const room = () => max - charCount(current);
  const hasText = () => current.trim() !== '' && current !== lead;
  for (const word of line.slice(current.length).split(/\s+/).filter(Boolean)) {
    if (hasText() && charCount(word) + 1 > room()) {
      out.push(current.trimEnd());
      current = indent;
    }
    let rest = [...word];
    if (hasText()) current += ' ';
    while (rest.length > room()) {
      const fit = Math.max(room(), 0);
      if (fit === 0) {
        out.push(current.trimEnd());
        current = indent;
        continue;
      }
      out.push(current + rest.slice(0, fit).join(''));
      rest = rest.slice(fit);
      current = indent;
    }
    current += rest.join('');
  }
  if (current.trim() !== '') out.push(current.trimEnd());
  return out.length > 0 ? out : [''];
}
