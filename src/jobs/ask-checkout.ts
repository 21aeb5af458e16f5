// Asking the checked-out wiki, as every job that answers does: the configured answerer, citations
// as permalinks at the commit read, and a provider's fault said as a warning.
import { type AskSession, type AskSessionOptions, askQuestion, openAskSession } from '../answer/ask.js';
import { createProviders, providerOptions } from '../answer/providers.js';
import type { WikiCitationRenderer } from '../answer/render.js';
import type { Trace } from '../answer/trace.js';
import type { WikiCatalog } from '../ladder/catalog.js';
import { repoPathOf, type Workspace } from '../config/workspace.js';
import type { RepoRef } from '../github/octokit.js';
import type { Clock } from '../net/clock.js';
import type { Reporter } from './reporter.js';

export interface AskContext {
  /** The checked-out workspace (GITHUB_WORKSPACE), with its resolved settings. */
  workspace: Workspace;
  env: NodeJS.ProcessEnv;
  /** What provider waits run on. */
  clock: Clock;
  reporter: Reporter;
  /** `$GITHUB_SERVER_URL`, for permalinks. */
  serverUrl: string;
  repo: RepoRef;
  /** Keep the catalog's snapshot between runs; none when the Action's input turns it off. */
  catalogCache?: CatalogCacheOption;
}

/**
 * openAskSession's `catalogCache`, and `writeLater`: given the snapshot's write, to call once the
 * answer is out (the Action's cache step does, before it saves).
 */
export type CatalogCacheOption = NonNullable<AskSessionOptions['catalogCache']> & { writeLater: (persist: () => Promise<void>) => void };

/** `$GITHUB_SERVER_URL/<repo>/blob/<sha>/<path>?plain=1#L<a>-L<b>`: line anchors work on markdown and on GHES. */
function permalinkRenderer(serverUrl: string, repo: RepoRef, commit: string, workspace: Pick<Workspace, 'wikiPrefix'>): WikiCitationRenderer {
  return (c) => {
    const file = repoPathOf(workspace, c.path).split('/').map(encodeURIComponent).join('/');
    const anchor = c.lines[0] === c.lines[1] ? `L${c.lines[0]}` : `L${c.lines[0]}-L${c.lines[1]}`;
    return `[\`${c.path}\` ${anchor}](${serverUrl}/${repo.owner}/${repo.repo}/blob/${commit}/${file}?plain=1#${anchor})`;
  };
}

/**
 * Asks the checked-out wiki, with the configured answerer: the trace (citations as permalinks at
 * the commit read, paths repository-relative) and the provider's fault, which is also a warning.
 */
export async function askFromCheckout(ctx: AskContext, text: string): Promise<{ session: AskSession; trace: Trace; fault: string | undefined }> {
  const { workspace } = ctx;
  const providers = createProviders(providerOptions(workspace.config, ctx.env, ctx.clock));
  for (const secret of providers.secrets) ctx.reporter.secret(secret);
  let session: AskSession;
  let trace: Trace;
  try {
    const cache = ctx.catalogCache;
    session = await openAskSession(workspace, providers, cache ? { catalogCache: { stewardVersion: cache.stewardVersion } } : {});
    if (cache && session.catalog) {
      ctx.reporter.info(`catalog: loaded from ${loadedFrom(session.catalog)}`);
      // Handed over before the question is asked: the snapshot is written even when answering fails.
      cache.writeLater(session.catalog.persist);
    }
    const commit = session.commit ?? ctx.env.GITHUB_SHA ?? 'HEAD';
    trace = await askQuestion(session, text, { renderCitation: permalinkRenderer(ctx.serverUrl, ctx.repo, commit, workspace) });
  } finally {
    // What the answerer started (the Copilot CLI) ends with the answer: the run must be able to exit.
    await providers.close();
  }
  // Paths in a posted trace are repository-relative: the runner's folders are nobody's business.
  trace.wiki.root = workspace.wikiPrefix || (trace.wiki.root === null ? null : '.');
  // The configured model failed and the offline answerer stood in: a maintainer should know.
  const fault = trace.provider_fault ? `The ${trace.answerer} answerer failed: ${trace.provider_fault} — this answer was made offline.` : undefined;
  if (fault) ctx.reporter.warning(fault);
  return { session, trace, fault };
}

/** Where the catalog came from, for the log: the pages, the snapshot, or the snapshot and the pages changed since it. */
function loadedFrom({ loadedFrom: from, pagesRead }: WikiCatalog): string {
  if (from === 'pages') return 'the pages';
  if (from === 'snapshot') return 'its snapshot';
  return `its snapshot and the ${pagesRead === 1 ? 'page' : `${pagesRead} pages`} changed since`;
}
