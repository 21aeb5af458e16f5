// Where things are: the repository root, its settings, and the wiki root, resolved once with the
// documented precedence (flag > config file > auto-detection); and the one mapping between paths in
// the wiki and paths in the repository.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { type StewardConfig, loadConfig } from './config.js';
import { type SettingsOverrides, resolveSettings } from './settings.js';

export class WikiNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WikiNotFoundError';
  }
}

export interface Workspace {
  repoRoot: string;
  config: StewardConfig;
  configFile: string | undefined;
  /** Absolute wiki root, or undefined when nothing was configured and nothing was found. */
  wikiRoot: string | undefined;
  /** How the wiki root was decided, for messages and the trace. */
  wikiSource: 'flag' | 'config' | 'detected' | 'none';
  /** The wiki's folder relative to the repository root, with `/` ('' when the wiki is the repository, or none was found). */
  wikiPrefix: string;
}

/** A wiki-relative path as the repository names it. */
export const repoPathOf = (workspace: Pick<Workspace, 'wikiPrefix'>, wikiPath: string): string =>
  workspace.wikiPrefix ? `${workspace.wikiPrefix}/${wikiPath}` : wikiPath;

/** A repository-relative path inside the wiki, as the wiki names it; undefined outside the wiki. */
export function wikiPathOf(workspace: Pick<Workspace, 'wikiPrefix'>, repoPath: string): string | undefined {
  if (workspace.wikiPrefix === '') return repoPath;
  return repoPath.startsWith(`${workspace.wikiPrefix}/`) ? repoPath.slice(workspace.wikiPrefix.length + 1) : undefined;
}

export const AUTO_DETECT_DIRS = ['wiki', 'docs/wiki', '.'];
const WIKI_MARKERS = ['schema.md', 'index.md'];

/** The nearest enclosing folder with a `.git` entry; `start` itself when there is none. */
export function findRepoRoot(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(start);
    dir = parent;
  }
}

const isDirectory = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
export const looksLikeWiki = (dir: string): boolean => isDirectory(dir) && WIKI_MARKERS.some((m) => existsSync(path.join(dir, m)));

export interface WorkspaceOptions {
  cwd: string;
  /** `--wiki DIR` / `wiki-path`, relative to cwd. */
  wikiFlag?: string | undefined;
  /** Flags or Action inputs, applied over the config file (see settings.ts). */
  overrides?: SettingsOverrides;
}

/** The path with symbolic links resolved (as it is, when it does not exist). */
const realPath = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
const isInside = (dir: string, root: string): boolean => {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  // A wiki named on the command line outside the current repository is read with its own
  // repository's settings, not with those of wherever the command was run.
  const flagged = options.wikiFlag ? realPath(path.resolve(options.cwd, options.wikiFlag)) : undefined;
  const here = realPath(findRepoRoot(options.cwd));
  const repoRoot = flagged && isDirectory(flagged) && !isInside(flagged, here) ? realPath(findRepoRoot(flagged)) : here;
  const loaded = await loadConfig(repoRoot, realPath(options.cwd));
  const config = resolveSettings(loaded.config, options.overrides ?? {});
  const file = loaded.file;
  const found = (wikiRoot: string | undefined, wikiSource: Workspace['wikiSource']): Workspace => ({
    repoRoot,
    config,
    configFile: file,
    wikiRoot,
    wikiSource,
    wikiPrefix: wikiRoot ? path.relative(repoRoot, wikiRoot).split(path.sep).join('/') : '',
  });
  const given = flagged
    ? { dir: flagged, source: 'flag' as const, label: `--wiki ${options.wikiFlag}` }
    : config.wiki
      ? { dir: path.resolve(repoRoot, config.wiki), source: 'config' as const, label: `'wiki: ${config.wiki}' in ${file}` }
      : undefined;
  if (given) {
    if (!isDirectory(given.dir)) throw new WikiNotFoundError(`${given.label}: ${given.dir} is not a directory`);
    if (!looksLikeWiki(given.dir)) throw new WikiNotFoundError(`${given.label}: ${given.dir} is not a wiki (it has no schema.md or index.md)`);
    return found(inRepository(given.dir, repoRoot, { fromFlag: given.source === 'flag', label: given.label }), given.source);
  }
  for (const candidate of AUTO_DETECT_DIRS) {
    const dir = path.resolve(repoRoot, candidate);
    if (looksLikeWiki(dir)) return found(inRepository(dir, repoRoot, { fromFlag: false, label: candidate }), 'detected');
  }
  return found(undefined, 'none');
}

/**
 * The wiki's folder with symbolic links resolved, so its files and its path in the repository are
 * where git has them. A folder the repository itself names (config or detection), unlike one named
 * on the command line, must stay inside the repository: one elsewhere would have the steward read
 * and quote files the repository does not hold.
 */
function inRepository(dir: string, repoRoot: string, o: { fromFlag: boolean; label: string }): string {
  const real = realPath(dir);
  if (!o.fromFlag && !isInside(real, repoRoot)) {
    const where = real === path.resolve(dir) ? 'is' : `is a symbolic link to ${real},`;
    throw new WikiNotFoundError(`${o.label}: ${dir} ${where} outside the repository ${repoRoot}; point --wiki at the folder itself`);
  }
  return real;
}

/** The wiki root, or a clear error saying where it was looked for and how to point at it. */
export function requireWikiRoot(workspace: Workspace): string {
  if (workspace.wikiRoot) return workspace.wikiRoot;
  throw new WikiNotFoundError(noWikiMessage(workspace));
}

/**
 * The one way every command says that nothing was configured and nothing was found: where it
 * looked, and how to point at a wiki. (`ask` still answers, cold, as the read protocol's A.0 says;
 * commands that need a wiki exit 2 with this message.)
 */
export const noWikiMessage = (workspace: Pick<Workspace, 'repoRoot'>): string => {
  const places = AUTO_DETECT_DIRS.map((d) => (d === '.' ? 'the repository root' : `${d}/`)).join(', ');
  return `no wiki found: looked for schema.md or index.md in ${places} under ${workspace.repoRoot}; pass --wiki DIR or set 'wiki:' in .wiki-steward.yml`;
};
