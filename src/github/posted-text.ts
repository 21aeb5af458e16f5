// Text the steward posts to GitHub — comments, issue and pull request titles and bodies, the
// digest, job summaries — passes through `postable` on its way out (the write helpers in
// writes-text.ts and the Action's summary call it, so no caller can forget):
//   - `@user` and `@org/team` are neutralised (neutralizeMentions, the one place that does it), so
//     quoting an asker, a wiki page or a model never pings anyone;
//   - HTML comment openers are broken, so nothing an asker wrote can pose as one of the steward's
//     hidden markers (`<!-- wiki-steward:… -->`) or hide the rest of the text;
//   - the steward's own markers are appended after that, untouched, as the text's trailer: the
//     only place the steward reads markers back from.

/** `@user` and `@org/team` must not ping anyone: a word joiner after the `@` breaks the link. */
export const neutralizeMentions = (text: string): string => text.replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u2060');

/** `<!--` opens an HTML comment: a word joiner after the `<` makes it visible text. */
const neutralizeHtmlComments = (text: string): string => text.replaceAll('<!--', '<\u2060!--');

/** Visible text as it may be posted: mentions and comment openers neutralised (idempotent). */
export const postableVisible = (text: string): string => neutralizeHtmlComments(neutralizeMentions(text));

/** A text the steward posts: what people read, and the steward's own hidden markers after it. */
export interface StewardText {
  text: string;
  /** Each one hidden `<!-- wiki-steward:… -->` comment, written by the steward's own code. */
  markers?: readonly string[];
}

const isOwnMarker = (marker: string): boolean =>
  marker.startsWith('<!-- wiki-steward:') && marker.endsWith(' -->') && marker.indexOf('-->') === marker.length - 3 && !/[\r\n]/.test(marker);

/** The body as posted: the visible text neutralised, then the markers, one a line. */
export function postable(content: string | StewardText): string {
  const { text, markers = [] } = typeof content === 'string' ? { text: content } : content;
  for (const marker of markers) {
    if (!isOwnMarker(marker)) throw new Error(`not a steward marker (one line, one <!-- wiki-steward:… --> comment): ${marker.slice(0, 80)}`);
  }
  const visible = postableVisible(text);
  return markers.length === 0 ? visible : `${visible}${visible === '' ? '' : '\n'}${markers.join('\n')}`;
}
