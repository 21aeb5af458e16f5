// Untrusted text made inert before it is posted or committed as markdown. What a model, a search
// provider, a page or an asker wrote is data: shown as written, never as HTML or an image, which
// GitHub (through its image proxy) and every reader of a page would load, carrying whatever a
// prompt injection put in the URL's query, nor as a link (a link's text can say anything about where
// it goes). The steward's own links to web results are accepted only as https and written so that
// no character ends the link.

/**
 * No HTML (a tag's `<` becomes `&lt;`, shown as `<`) and no images: every `!` right before a `[` is
 * dropped, the whole run (dropping one `!` of `!![` would leave `![`), and a backslash between them
 * cannot help (`!\![` keeps `\[`, an escaped bracket).
 */
export const inertText = (text: string): string =>
  text
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(/!+(?=\[)/g, '')
    // A link written by someone else is shown as written, not followed: `](` loses its meaning.
    .replace(/\]\(/g, ']\\(');

/** Characters a URL may hold that end a markdown link's destination or its text's context. */
const LINK_BREAKERS = /[()<>[\]\s"'`\\]/g;

/** An absolute https URL, normalised and with every link-ending character percent-encoded; undefined for anything else. */
export function safeWebUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return undefined;
  return parsed.href.replace(LINK_BREAKERS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** `[title](url)` with the title inert and without brackets, or the title alone when the URL is not a safe https URL. */
export function webLink(title: string, url: string): string {
  const text =
    inertText(title.replace(/[[\]\\]/g, ''))
      .replace(/\s+/g, ' ')
      .trim() || 'link';
  const href = safeWebUrl(url);
  return href ? `[${text}](${href})` : text;
}
