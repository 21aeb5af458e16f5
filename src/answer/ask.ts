// One question, end to end: the ladder (A–B), the answerer (C or E), the cite contract, and the
// trace that records every step. The CLI and the Action both call this; only rendering differs.
import type { StewardConfig } from '../config/config.js';
import { type Workspace, noWikiMessage } from '../config/workspace.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { type WikiCatalog, loadCatalog } from '../ladder/catalog.js';
import { type CatalogCacheOptions, openCatalogCache } from '../ladder/catalog-cache.js';
import { type LadderOptions, runLadder } from '../ladder/ladder.js';
import { type Outcome, type TokenCount, type Trace } from './trace.js';
import { extractSignalTerms, isOwnTerm } from '../ladder/signal-terms.js';
import { loadFileTree } from '../wiki/tree.js';
import type { Claim } from './answerer.js';
import { JsonHttpClient, ProviderError } from '../net/http-json.js';
import type { Providers } from './providers.js';
import { enforceCiteContract } from './cite-contract.js';
import { OfflineAnswerer } from './offline-answerer.js';
import { type WikiCitationRenderer, plainCitation, renderAnswer } from './render.js';

/** A wiki loaded once and asked many questions (a `--questions` batch loads it once). */
export interface AskSession {
  catalog: WikiCatalog | undefined;
  commit: string | null;
  /** Wiki pages whose text is not the commit's (changed, untracked, ignored): a trace that read one names no commit. */
  changed: ReadonlySet<string>;
  loadMs: number;
  ladder: LadderOptions;
  providers: Providers;
  /** Why there is no catalog (A.0), said as every command says it. */
  noWiki?: string;
}

/**
 * The longest question the wiki search reads, for the CLI and the Action alike: a longer one (a
 * pasted log, a huge issue body) is cut here, and the trace's notes say so.
 */
export const QUESTION_SEARCH_LIMIT = 4_000;

/**
 * A follow-up such as "/wiki ask why?" has no terms of its own: the issue it follows (its title)
 * is its context.
 */
export const questionWithContext = (followUp: string, issueTitle: string): string =>
  extractSignalTerms(followUp).terms.length === 0 ? `${followUp} (${issueTitle})` : followUp;

/** Pages the wiki search could not read (over the size limit, not text), said in every answer's notes. */
function skippedPagesNote(unreadable: ReadonlyArray<{ path: string; reason: string }>): string[] {
  if (unreadable.length === 0) return [];
  const named = unreadable
    .slice(0, 3)
    .map((u) => `${u.path} (${u.reason})`)
    .join('; ');
  const more = unreadable.length > 3 ? `; and ${unreadable.length - 3} more` : '';
  return [`${unreadable.length} page${unreadable.length === 1 ? ' was' : 's were'} skipped by the wiki search: ${named}${more}.`];
}

/** Searches per question (D searches each uncovered claim). */
const MAX_SEARCHES = 3;
const SNIPPET_LIMIT = 280;

export const ladderOptionsOf = (config: StewardConfig): LadderOptions => ({
  inlineMax: config.ladder.inlineMax,
  stopwords: config.ladder.stopwords,
  commonTermRatio: config.ladder.commonTermRatio,
});

export const offlineProviders = (): Providers => ({
  answerer: new OfflineAnswerer(),
  search: undefined,
  webResults: 0,
  http: new JsonHttpClient(),
  secrets: [],
  close: async () => undefined,
});

/**
 * `catalogCache`: keep the catalog's snapshot between runs (see ladder/catalog-cache.ts), as this
 * version of the steward; the snapshot is written when `session.catalog.persist()` is called
 * (after the answers are out), not while the session opens.
 */
export interface AskSessionOptions {
  catalogCache?: Pick<CatalogCacheOptions, 'stewardVersion' | 'wallClock'>;
}

export async function openAskSession(workspace: Workspace, providers: Providers = offlineProviders(), options: AskSessionOptions = {}): Promise<AskSession> {
  const started = performance.now();
  const root = workspace.wikiRoot;
  let catalog: WikiCatalog | undefined;
  let head: Awaited<ReturnType<GitCommandManager['headState']>> | undefined;
  if (root) {
    // Git's answers and the walk of the tree do not depend on each other: asked at once.
    const { catalogCache } = options;
    const headState = new GitCommandManager(root).headState();
    // Awaited below; a walk that fails first must not leave git's failure unhandled.
    headState.catch(() => undefined);
    const [tree, cache] = await Promise.all([
      loadFileTree(root),
      catalogCache && openCatalogCache(root, workspace.config, { ...catalogCache, repoRoot: workspace.repoRoot, head: headState }),
    ]);
    head = await headState;
    catalog = await loadCatalog(tree, workspace.config, cache);
  }
  return {
    catalog,
    commit: head?.commit ?? null,
    changed: head?.changed ?? new Set<string>(),
    loadMs: Math.round(performance.now() - started),
    ladder: ladderOptionsOf(workspace.config),
    providers,
    ...(catalog ? {} : { noWiki: noWikiMessage(workspace) }),
  };
}

export interface AskOptions {
  id?: unknown;
  renderCitation?: WikiCitationRenderer;
}

const since = (t: number) => Math.round(performance.now() - t);

/** The text cut to at most `limit` characters, at white space when some is near the end: a half word searches for a word nobody wrote. */
function cutAtSpace(text: string, limit: number): string {
  for (let at = limit; at > limit - 200 && at > 0; at--) if (/\s/.test(text[at]!)) return text.slice(0, at);
  return text.slice(0, limit);
}

/**
 * The candidates' texts in rank order (best first: answerers read, and budget, in that order), those
 * that cannot be read left out, up to `limit` texts; the candidates past them are `beyond`, unread.
 */
async function readCandidates(
  catalog: WikiCatalog,
  ranked: readonly string[],
  limit = Number.POSITIVE_INFINITY,
): Promise<{ pages: Map<string, string>; beyond: string[] }> {
  const pages = new Map<string, string>();
  let next = 0;
  while (next < ranked.length && pages.size < limit) {
    const slice = ranked.slice(next, next + (limit - pages.size));
    next += slice.length;
    const texts = await catalog.readPages(slice);
    for (const path of slice) if (texts.has(path)) pages.set(path, texts.get(path)!);
  }
  return { pages, beyond: ranked.slice(next) };
}

/** How a question's deadline is named in the faults it causes (notes, `provider_calls`, the Action's warning). */
export const deadlineName = (ms: number): string => `the question's deadline (answerer.deadline_ms: ${ms} ms)`;

/**
 * One question, with all its provider calls (term proposal, answer and repair, web searches) under
 * one deadline: past it no call starts and the one in flight is aborted; each fault is said in the
 * answer's notes, the trace's `provider_calls`, and an answer made offline stands in for the model's.
 */
export async function askQuestion(session: AskSession, asked: string, options: AskOptions = {}): Promise<Trace> {
  const { http, deadlineMs } = session.providers;
  const deadline = deadlineMs === undefined ? undefined : { ms: deadlineMs, what: deadlineName(deadlineMs) };
  return http.underDeadline(deadline, () => askUnderDeadline(session, asked, options));
}

async function askUnderDeadline(session: AskSession, asked: string, options: AskOptions): Promise<Trace> {
  const question = asked.length > QUESTION_SEARCH_LIMIT ? cutAtSpace(asked, QUESTION_SEARCH_LIMIT) : asked;
  // Said in every answer: a cut question, pages the search skipped, a proposal not used.
  const askNotes = [
    ...(question.length < asked.length
      ? [`The question was cut to its first ${question.length} characters (at most ${QUESTION_SEARCH_LIMIT}, at a word) for the wiki search.`]
      : []),
    ...skippedPagesNote(session.catalog?.unreadable ?? []),
  ];
  const base = {
    question,
    ...(options.id !== undefined ? { id: options.id } : {}),
    wiki: { root: session.catalog?.root ?? null, commit: session.commit },
    answerer: session.providers.answerer.name,
    unread: [],
    violations: [],
    citations: [],
    web_searches: [],
    provider_calls: [],
    tokens: { input: 0, output: 0 },
    notes: askNotes,
  };
  const callsBefore = session.providers.http.calls.length;
  if (!session.catalog) {
    // A.0: nothing configured and nothing found. Step F, said plainly.
    const web = await searchTheWeb(session, [question]);
    const empty = {
      outcome: 'cold' as const,
      branch: 'unconfigured' as const,
      claims: [],
      missing: [],
      terms: [],
      webClaims: web.claims,
      notes: session.noWiki ? [session.noWiki] : [],
    };
    return {
      ...base,
      notes: [...base.notes, ...empty.notes],
      web_searches: web.searches,
      citations: web.claims.flatMap((c) => c.citations),
      ...providerTally(session, callsBefore),
      branch: 'unconfigured',
      outcome: 'cold',
      oriented: [],
      signal_terms: [],
      dropped_terms: [],
      candidates: [],
      read: [],
      coverage: { covered: false, found: [], missing: [] },
      missing: [],
      answer: renderAnswer(empty),
      timings_ms: { load: session.loadMs, ladder: 0, answer: 0 },
    };
  }
  // Step B may take the model's terms in the wiki's words (a call of its own, before the ladder).
  const proposal = session.providers.answerer.proposeTerms ? await session.providers.answerer.proposeTerms(question) : undefined;
  const ladderStart = performance.now();
  const ladder = runLadder(session.catalog, question, session.ladder, proposal && { terms: proposal.terms, by: session.providers.answerer.name });
  askNotes.push(...(proposal?.notes ?? []));
  const ladderMs = since(ladderStart);
  const answerStart = performance.now();
  const trace: Trace = {
    ...base,
    branch: ladder.branch,
    seed_branch: ladder.seedBranch,
    outcome: 'cold',
    oriented: ladder.oriented,
    signal_terms: ladder.terms.map((t) => ({
      term: t.term,
      kind: t.kind,
      ...(t.via ? { via: t.via } : {}),
      ...(t.weight !== undefined ? { weight: t.weight } : {}),
      ...(t.gate === false ? { gate: false as const, note: t.note } : {}),
    })),
    dropped_terms: ladder.dropped,
    candidates: ladder.candidates.map((c) => ({
      path: c.path,
      title: c.title,
      score: Math.round(c.score * 1000) / 1000,
      source: c.source,
      matched: c.matched,
    })),
    ...(ladder.askedBefore.length > 0 ? { asked_before: ladder.askedBefore } : {}),
    read: [],
    coverage: { covered: false, found: [], missing: ladder.terms.filter(isOwnTerm).map((t) => t.term) },
    missing: [],
    answer: '',
    timings_ms: { load: session.loadMs, ladder: ladderMs, answer: 0 },
  };
  const terms = ladder.terms.map((t) => t.term);
  if (ladder.branch === 'cold') {
    // F: search the question.
    const web = await searchTheWeb(session, [question]);
    Object.assign(
      trace,
      { missing: trace.coverage.missing, web_searches: web.searches, citations: web.claims.flatMap((c) => c.citations) },
      providerTally(session, callsBefore),
    );
    trace.answer = renderAnswer(
      { outcome: 'cold', branch: 'cold', claims: [], missing: [], terms, webClaims: web.claims, askedBefore: ladder.askedBefore },
      options.renderCitation,
    );
    trace.timings_ms.answer = since(answerStart);
    return trace;
  }
  try {
    const { answerer } = session.providers;
    const { pages, beyond } = await readCandidates(
      session.catalog,
      ladder.candidates.map((c) => c.path),
      answerer.pageLimit,
    );
    const scores = new Map(ladder.candidates.map((c) => [c.path, c.score]));
    const draft = await answerer.answer({ question, branch: ladder.branch, terms: ladder.terms, pages, scores, beyond });
    const pagesRead = new Map(draft.read.map((p) => [p, pages.get(p)!]));
    const wiki = enforceCiteContract(draft.claims, { pagesRead, searchUrls: new Set() });
    const outcome: Outcome = draft.covered && wiki.claims.length > 0 ? 'answered' : 'gap';
    // D: search what is missing, one search per uncovered claim (offline: the question itself).
    const queries = outcome === 'gap' ? (draft.missingAre === 'claims' && draft.missing.length > 0 ? draft.missing.slice(0, MAX_SEARCHES) : [question]) : [];
    const web = await searchTheWeb(session, queries);
    const checkedWeb = enforceCiteContract(web.claims, { pagesRead, searchUrls: web.urls });
    Object.assign(trace, {
      outcome,
      read: draft.read,
      unread: draft.unread,
      coverage: { covered: draft.covered, found: draft.found, missing: draft.missing },
      citations: [...wiki.claims, ...checkedWeb.claims].flatMap((c) => c.citations),
      missing: draft.missing,
      violations: [...wiki.violations, ...checkedWeb.violations],
      web_searches: web.searches,
      notes: [...askNotes, ...(draft.notes ?? []), ...web.notes],
      ...(draft.fault ? { provider_fault: draft.fault } : {}),
      ...providerTally(session, callsBefore, draft.estimatedTokens),
    });
    const uncommitted = draft.read.filter((p) => session.changed.has(p));
    if (uncommitted.length > 0 && trace.wiki.commit) {
      const named = uncommitted.slice(0, 3).join(', ') + (uncommitted.length > 3 ? ` and ${uncommitted.length - 3} more` : '');
      trace.notes.push(
        `Pages read are not as commit ${trace.wiki.commit.slice(0, 7)} holds them (changed or not committed: ${named}), so no commit is named for this answer.`,
      );
      trace.wiki.commit = null;
    }
    trace.answer = renderAnswer(
      {
        outcome,
        branch: ladder.branch,
        claims: wiki.claims,
        webClaims: checkedWeb.claims,
        missing: draft.missing,
        missingElsewhere: draft.missingElsewhere ?? [],
        terms,
        notes: trace.notes,
        askedBefore: ladder.askedBefore,
      },
      options.renderCitation ?? plainCitation,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    Object.assign(trace, { outcome: 'error', error: message, ...providerTally(session, callsBefore) });
    trace.answer = renderAnswer({ outcome: 'error', branch: ladder.branch, claims: [], missing: [], terms, error: message });
  }
  trace.timings_ms.answer = since(answerStart);
  return trace;
}

/** The provider calls made since `from`, and the tokens they cost: as reported, plus the estimate for calls that reported none. */
function providerTally(session: AskSession, from: number, estimated = { input: 0, output: 0 }): Pick<Trace, 'provider_calls' | 'tokens'> {
  const calls = session.providers.http.calls.slice(from);
  const reported = calls.reduce((t, c) => ({ input: t.input + (c.tokens?.input ?? 0), output: t.output + (c.tokens?.output ?? 0) }), { input: 0, output: 0 });
  const byProvider = reported.input + reported.output > 0;
  const byEstimate = estimated.input + estimated.output > 0;
  const counted: TokenCount | undefined = byProvider && byEstimate ? 'provider and estimate' : byProvider ? 'provider' : byEstimate ? 'estimate' : undefined;
  const tokens = { input: reported.input + estimated.input, output: reported.output + estimated.output, ...(counted ? { counted } : {}) };
  return { provider_calls: calls, tokens };
}

interface WebFindings {
  claims: Claim[];
  urls: Set<string>;
  searches: Trace['web_searches'];
  notes: string[];
}

/** Steps D and F: search, and turn results into claims citing `[title](url)`. A failure is reported, not fatal. */
async function searchTheWeb(session: AskSession, queries: readonly string[]): Promise<WebFindings> {
  const findings: WebFindings = { claims: [], urls: new Set(), searches: [], notes: [] };
  const search = session.providers.search;
  if (!search || queries.length === 0) return findings;
  for (const query of queries.slice(0, MAX_SEARCHES)) {
    try {
      const results = await search.search(query, session.providers.webResults);
      findings.searches.push({ provider: search.name, query, results: results.length });
      for (const r of results) {
        if (findings.urls.has(r.url)) continue;
        findings.urls.add(r.url);
        const snippet = r.snippet.length > SNIPPET_LIMIT ? `${r.snippet.slice(0, SNIPPET_LIMIT - 1)}…` : r.snippet;
        findings.claims.push({ text: snippet || r.title, citations: [{ url: r.url, title: r.title }] });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      findings.searches.push({ provider: search.name, query, results: 0, error: message });
      findings.notes.push(`Web search failed (${message}); the answer says what the wiki is missing without web sources.`);
      // Past the question's deadline no other search is made.
      if (error instanceof ProviderError && error.status === 'deadline') break;
    }
  }
  return findings;
}
