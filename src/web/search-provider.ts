// Web search for steps D and F behind one interface; each provider speaks its own API.
import { JsonHttpClient, ProviderError, endpoint } from '../net/http-json.js';
import { safeWebUrl } from '../markdown/inert.js';

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, count: number): Promise<WebResult[]>;
}

/** Brave documents at most 400 characters and 50 words per query. */
const BRAVE_MAX_WORDS = 50;
const BRAVE_MAX_CHARS = 400;

/** Whole words from the start of a query, within a word and a character limit. */
export function clipQuery(query: string, maxWords: number, maxChars: number): string {
  const words = query.trim().split(/\s+/).slice(0, maxWords);
  let out = '';
  for (const word of words) {
    const next = out === '' ? word : `${out} ${word}`;
    if (next.length > maxChars) break;
    out = next;
  }
  return out || query.slice(0, maxChars);
}

const clean = (s: unknown): string =>
  typeof s === 'string'
    ? s
        .replace(/<[^<>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';

function results(provider: string, items: unknown, pick: (item: Record<string, unknown>) => WebResult): WebResult[] {
  if (!Array.isArray(items)) throw new ProviderError(provider, 'the reply has no results list', 'malformed', true);
  return (
    items
      .filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null)
      .map(pick)
      // Only https URLs that parse are cited: a result's URL is written into comments and pages.
      .filter((r) => safeWebUrl(r.url) !== undefined && r.title !== '')
  );
}

/** Tavily: `POST {base}/search` with a bearer key; results carry `title`, `url`, `content`. */
export class TavilySearch implements SearchProvider {
  readonly name = 'tavily';
  static readonly DEFAULT_BASE_URL = 'https://api.tavily.com';
  constructor(
    private readonly http: JsonHttpClient,
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async search(query: string, count: number): Promise<WebResult[]> {
    const { body } = await this.http.request({
      provider: this.name,
      method: 'POST',
      url: endpoint(this.baseUrl, 'search'),
      headers: { authorization: `Bearer ${this.apiKey}` },
      body: { query, max_results: count, search_depth: 'basic', include_answer: false, include_raw_content: false },
    });
    return results(this.name, (body as { results?: unknown }).results, (r) => ({ title: clean(r.title), url: String(r.url), snippet: clean(r.content) }));
  }
}

/** Brave Search API: `GET {base}/res/v1/web/search?q=…&count=…` with `X-Subscription-Token`. */
export class BraveSearch implements SearchProvider {
  readonly name = 'brave';
  static readonly DEFAULT_BASE_URL = 'https://api.search.brave.com';
  constructor(
    private readonly http: JsonHttpClient,
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async search(query: string, count: number): Promise<WebResult[]> {
    const url = endpoint(this.baseUrl, 'res/v1/web/search');
    url.searchParams.set('q', clipQuery(query, BRAVE_MAX_WORDS, BRAVE_MAX_CHARS));
    url.searchParams.set('count', String(count));
    const { body } = await this.http.request({ provider: this.name, method: 'GET', url, headers: { 'x-subscription-token': this.apiKey } });
    const web = (body as { web?: { results?: unknown } }).web;
    return results(this.name, web?.results ?? [], (r) => ({ title: clean(r.title), url: String(r.url), snippet: clean(r.description) }));
  }
}

/** SearXNG (self-hosted): `GET {base}/search?q=…&format=json`; the instance must enable JSON output. */
export class SearxngSearch implements SearchProvider {
  readonly name = 'searxng';
  constructor(
    private readonly http: JsonHttpClient,
    private readonly baseUrl: string,
  ) {}

  async search(query: string, count: number): Promise<WebResult[]> {
    const url = endpoint(this.baseUrl, 'search');
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    try {
      const { body } = await this.http.request({ provider: this.name, method: 'GET', url, headers: {} });
      return results(this.name, (body as { results?: unknown }).results, (r) => ({
        title: clean(r.title),
        url: String(r.url),
        snippet: clean(r.content),
      })).slice(0, count);
    } catch (error) {
      if (error instanceof ProviderError && error.status === 403) {
        throw new ProviderError(this.name, `${error.message} (enable the json format under search.formats in the instance's settings.yml)`, 403, false);
      }
      throw error;
    }
  }
}
