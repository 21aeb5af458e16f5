import { parsePeriod, reportedPeriod } from '../digest/period.js';
import { createGitHubClient } from '../github/octokit.js';
import { RepoWrites } from '../github/repo-writes.js';
import { noWikiMessage } from '../config/workspace.js';
import { digestRaceLines, runDigest } from '../jobs/digest.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

export interface DigestOptions {
  wiki?: string;
  format: 'text' | 'json';
  period?: string;
  /** `owner/name`: also read the steward's comments and capture PRs (token from GITHUB_TOKEN). */
  repo?: string;
  /** With --repo: create or update the period's digest issue. */
  post: boolean;
}

export async function digestCommand(io: CliIo, options: DigestOptions): Promise<number> {
  const workspace = await openCliWorkspace(io, options.wiki);
  if (!workspace.wikiRoot) io.stderr(`wiki-steward: ${noWikiMessage(workspace)} (the digest has no wiki health to report)`);
  const config = workspace.config;
  const now = new Date();
  // A person's digest reports the current period unless they name one.
  const period = options.period ? parsePeriod(options.period) : reportedPeriod(config.digest.period, now, false);
  let github;
  let repo;
  if (options.repo) {
    const [owner, name] = options.repo.split('/');
    if (!owner || !name) throw new Error(`--repo must be owner/name, got '${options.repo}'`);
    const token = io.env.GITHUB_TOKEN;
    if (!token) throw new Error('--repo needs a token in GITHUB_TOKEN');
    github = createGitHubClient(token, io.env, { warning: (message) => io.stderr(`wiki-steward: ${message}`), secret: () => undefined });
    repo = { owner, repo: name };
  }
  const writes = options.post ? new RepoWrites(false, io.stderr, config.digest.maxWrites) : undefined;
  if (options.post && !github) throw new Error('--post needs --repo');
  const run = await runDigest(workspace, { github, writes, repo, period, now });
  if (options.format === 'json')
    io.stdout(
      JSON.stringify(
        {
          ...run.report,
          health: run.report.health && { ...run.report.health, updated: Object.fromEntries(run.report.health.updated) },
          issue_url: run.issueUrl ?? null,
        },
        null,
        2,
      ),
    );
  else io.stdout(run.markdown);
  for (const line of digestRaceLines(run)) io.stderr(`wiki-steward: ${line.text}`);
  if (run.issueUrl) io.stderr(`digest issue: ${run.issueUrl}`);
  return EXIT.ok;
}
