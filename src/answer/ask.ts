// One question, end to end: the ladder (A–B), the answerer (C or E), the cite contract, and the
// trace that records every step. The CLI and the Action both call this; only rendering differs.
import type { StewardConfig } from '../config/config.js';
import type { Workspace } from '../config/workspace.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { type WikiCatalog, loadCatalog } from '../ladder/catalog.js';
import { type LadderOptions, runLadder } from '../ladder/ladder.js';
import { type Outcome, type Trace } from '../ladder/trace.js';
import { loadFileTree } from '../wiki/tree.js';
import type { Answerer } from './answerer.js';
import { enforceCiteContract } from './cite-contract.js';
import { OfflineAnswerer } from './offline-answerer.js';
import { type WikiCitationRenderer, plainCitation, renderAnswer } from './render.js';

/** A wiki loaded once and asked many questions (a `--questions` batch loads it once). */
export interface AskSession {
  catalog: WikiCatalog | undefined;
  commit: string | null;
  loadMs: number;
  ladder: LadderOptions;
  answerer: Answerer;
}

export const ladderOptionsOf = (config: StewardConfig): LadderOptions => ({
  inlineMax: config.ladder.inlineMax,
  stopwords: config.ladder.stopwords,
  commonTermRatio: config.ladder.commonTermRatio,
});

export async function openAskSession(workspace: Workspace, answerer: Answerer = new OfflineAnswerer()): Promise<AskSession> {
  const started = performance.now();
  const catalog = workspace.wikiRoot ? await loadCatalog(await loadFileTree(workspace.wikiRoot), workspace.config) : undefined;
  const commit = workspace.wikiRoot ? ((await new GitCommandManager(workspace.wikiRoot).headCommit()) ?? null) : null;
  return { catalog, commit, loadMs: Math.round(performance.now() - started), ladder: ladderOptionsOf(workspace.config), answerer };
}

export interface AskOptions {
  id?: unknown;
  renderCitation?: WikiCitationRenderer;
}

const since = (t: number) => Math.round(performance.now() - t);

export async function askQuestion(session: AskSession, question: string, options: AskOptions = {}): Promise<Trace> {
  const base = {
    question,
    ...(options.id !== undefined ? { id: options.id } : {}),
    wiki: { root: session.catalog?.root ?? null, commit: session.commit },
    answerer: session.answerer.name,
    unread: [],
    violations: [],
    citations: [],
  };
  if (!session.catalog) {
    // A.0: nothing configured and nothing found. Step F, said plainly.
    const empty = { outcome: 'cold' as const, branch: 'unconfigured' as const, claims: [], missing: [], terms: [] };
    return {
      ...base,
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
  const ladderStart = performance.now();
  const ladder = runLadder(session.catalog, question, session.ladder);
  const ladderMs = since(ladderStart);
  const answerStart = performance.now();
  const trace: Trace = {
    ...base,
    branch: ladder.branch,
    outcome: 'cold',
    oriented: ladder.oriented,
    signal_terms: ladder.terms.map((t) => ({ term: t.term, kind: t.kind, ...(t.via ? { via: t.via } : {}) })),
    dropped_terms: ladder.dropped,
    candidates: ladder.candidates.map((c) => ({ path: c.path, title: c.title, matched: c.matched })),
    read: [],
    coverage: { covered: false, found: [], missing: ladder.terms.filter((t) => t.kind !== 'expanded').map((t) => t.term) },
    missing: [],
    answer: '',
    timings_ms: { load: session.loadMs, ladder: ladderMs, answer: 0 },
  };
  const terms = ladder.terms.map((t) => t.term);
  if (ladder.branch === 'cold') {
    trace.missing = trace.coverage.missing;
    trace.answer = renderAnswer({ outcome: 'cold', branch: 'cold', claims: [], missing: [], terms }, options.renderCitation);
    trace.timings_ms.answer = since(answerStart);
    return trace;
  }
  try {
    const pages = await session.catalog.readPages(ladder.candidates.map((c) => c.path));
    const draft = await session.answerer.answer({ question, branch: ladder.branch, terms: ladder.terms, pages });
    const contract = enforceCiteContract(draft.claims, { pagesRead: pages, searchUrls: new Set() });
    const outcome: Outcome = draft.covered && contract.claims.length > 0 ? 'answered' : 'gap';
    Object.assign(trace, {
      outcome,
      read: draft.read,
      unread: draft.unread,
      coverage: { covered: draft.covered, found: draft.found, missing: draft.missing },
      citations: contract.claims.flatMap((c) => c.citations),
      missing: draft.missing,
      violations: contract.violations,
      answer: renderAnswer({ outcome, branch: ladder.branch, claims: contract.claims, missing: draft.missing, terms }, options.renderCitation ?? plainCitation),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    Object.assign(trace, { outcome: 'error', error: message, answer: renderAnswer({ outcome: 'error', branch: ladder.branch, claims: [], missing: [], terms, error: message }) });
  }
  trace.timings_ms.answer = since(answerStart);
  return trace;
}
