// A git repository holding a small valid wiki with fresh index files, committed: the starting
// point of the hook tests.
import { cli } from './cli.js';
import { type GitRepo, type TempDirs, createRepo } from './git-repo.js';
import { sampleWiki } from './wiki-pages.js';

export interface WikiRepoOptions {
  /** Repository-relative folder of the wiki ('' = the repository root, the default). */
  wikiDir?: string;
  /** Extra files (repository-relative), written and committed with the wiki. */
  files?: Record<string, string>;
}

/** Repository-relative path of a wiki-relative one. */
export const inWiki = (wikiDir: string, relPath: string): string => (wikiDir === '' ? relPath : `${wikiDir}/${relPath}`);

export async function createWikiRepo(dirs: TempDirs, options: WikiRepoOptions = {}): Promise<GitRepo> {
  const wikiDir = options.wikiDir ?? '';
  const wiki = Object.fromEntries(Object.entries(sampleWiki()).map(([rel, text]) => [inWiki(wikiDir, rel), text]));
  const repo = await createRepo(dirs, { ...wiki, ...options.files });
  cli(['index'], repo.root);
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'initial wiki');
  return repo;
}

/** `wiki-steward hooks install` in the repository; returns the CLI's result. */
export const installHooks = (repo: GitRepo) => cli(['hooks', 'install'], repo.root);
