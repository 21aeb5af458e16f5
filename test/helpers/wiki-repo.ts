// A git repository holding a small valid wiki with fresh index files, committed: the starting
// point of the hook tests. A test file that starts many tests from the same repository prepares it
// once (wikiRepoTemplate: `index`, and `hooks install` when asked, run in-process as the built CLI
// would run them) and gives each test a copy of it, byte for byte.
import { cpSync } from 'node:fs';
import { runAsBuilt } from './cli.js';
import { type GitRepo, TempDirs, createRepo, openRepo } from './git-repo.js';
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
  const indexed = await runAsBuilt(['index'], repo.root);
  if (indexed.status !== 0) throw new Error(`wiki-steward index exited ${indexed.status}:\n${indexed.stdout}${indexed.stderr}`);
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'initial wiki');
  return repo;
}

/** `wiki-steward hooks install` in the repository (in-process; the hook names the built CLI); returns the CLI's result. */
export const installHooks = (repo: GitRepo) => runAsBuilt(['hooks', 'install'], repo.root);

export interface TemplateOptions extends WikiRepoOptions {
  /** Whether the prepared repository has the pre-commit hook installed (calling the built CLI). */
  hooks?: boolean;
  /** Anything else the prepared repository needs, done once (in the template) before it is copied. */
  arrange?: (repo: GitRepo) => void;
}

export interface WikiRepoTemplate {
  /** A new repository in a temp folder of `dirs`: a copy of the prepared one (prepared on first use). */
  copy(dirs: TempDirs): Promise<GitRepo>;
  /** Removes the prepared repository (call it in afterAll). */
  cleanup(): Promise<void>;
}

/**
 * createWikiRepo (and installHooks) once; each `copy` is that repository copied, work tree and .git
 * alike (modes and times kept), so it is what the same steps would have made in the new folder: no
 * file of a repository made this way names the folder it is in, and the hook names the CLI by its
 * absolute path.
 */
export function wikiRepoTemplate(options: TemplateOptions = {}): WikiRepoTemplate {
  const own = new TempDirs();
  let prepared: Promise<GitRepo> | undefined;
  const prepare = async (): Promise<GitRepo> => {
    const repo = await createWikiRepo(own, options);
    if (options.hooks) await installHooks(repo);
    options.arrange?.(repo);
    return repo;
  };
  return {
    async copy(dirs) {
      const template = await (prepared ??= prepare());
      const repo = openRepo(await dirs.make('ws-repo-'));
      cpSync(template.root, repo.root, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      return repo;
    },
    cleanup: () => own.cleanup(),
  };
}
