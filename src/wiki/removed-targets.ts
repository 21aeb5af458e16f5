// Files a commit (or a pull request) deletes or moves away break the pages that link to them or cite
// them as sources, although none of those pages changed. They are found in the staged tree (one
// `git grep --cached` for the names that went away, then the validator on the pages it finds; in a
// checkout the index is HEAD's tree) and reported like broken links in changed pages, saying which
// deletion or move broke them. The pre-commit hook and the validate job both ask.
import { type Workspace, wikiPathOf } from '../config/workspace.js';
import { type Diagnostic, cutValue } from './diagnostics.js';
import { type WikiLayout, parentDir } from './layout.js';
import type { WikiTree } from './tree.js';
import { isIndexFile, validatePage } from './validator.js';
import { resolveWikiPath } from './wiki-path.js';
import type { GitCommandManager } from '../git/git-command-manager.js';

/** Wiki-relative path of each file or folder the commit takes away → where it moved, when it did. */
export type RemovedTargets = ReadonlyMap<string, string | undefined>;

/**
 * What the commit takes away: files it changes that are not in the staged tree (index files aside:
 * the hook writes those itself), and folders left empty by them.
 */
export async function removedTargets(
  git: GitCommandManager,
  workspace: Pick<Workspace, 'wikiPrefix'>,
  tree: WikiTree,
  changed: readonly string[],
): Promise<RemovedTargets> {
  const gone = changed.filter((p) => !tree.files.has(p) && !isIndexFile(p));
  return gone.length === 0 ? new Map() : withEmptiedFolders(tree, gone, wikiMoves(workspace, await git.stagedRenames()));
}

/** What the commits since `base` (a pull request's base) delete or move away, and folders left empty by them. */
export async function removedSince(git: GitCommandManager, workspace: Pick<Workspace, 'wikiPrefix'>, tree: WikiTree, base: string): Promise<RemovedTargets> {
  const { deleted, renamed } = await git.removedSince(base);
  const moves = wikiMoves(workspace, renamed);
  const gone = [...deleted.map((p) => wikiPathOf(workspace, p)), ...moves.keys()].filter(
    (p): p is string => p !== undefined && !tree.files.has(p) && !isIndexFile(p),
  );
  return withEmptiedFolders(tree, gone, moves);
}

/** Renames (repository-relative, from → to) as wiki-relative paths, both ends in the wiki. */
function wikiMoves(workspace: Pick<Workspace, 'wikiPrefix'>, renames: ReadonlyMap<string, string>): Map<string, string> {
  const moves = new Map<string, string>();
  for (const [from, to] of renames) {
    const a = wikiPathOf(workspace, from);
    const b = wikiPathOf(workspace, to);
    if (a !== undefined && b !== undefined) moves.set(a, b);
  }
  return moves;
}

function withEmptiedFolders(tree: WikiTree, gone: readonly string[], moves: ReadonlyMap<string, string>): RemovedTargets {
  const removed = new Map<string, string | undefined>();
  for (const file of gone) {
    removed.set(file, moves.get(file));
    for (let dir = parentDir(file); dir !== '' && !tree.dirs.has(dir) && !removed.has(dir); dir = parentDir(dir)) removed.set(dir, undefined);
  }
  return removed;
}

/** The path a broken-link or missing-source diagnostic points at (wiki-relative), if it can be told. */
function targetOf(d: Diagnostic): { target: string; shown: string } | undefined {
  if (d.code === 'broken-link' && d.field !== undefined) {
    const link = d.field.split('#')[0]!;
    const target = resolveWikiPath(link.startsWith('/') ? '' : parentDir(d.path), link);
    return target === undefined ? undefined : { target, shown: d.field };
  }
  if (d.code === 'missing-source') {
    // The validator keeps the whole entry in `target` (its message may show it cut).
    const source = d.target ?? d.message.slice(d.message.indexOf(': ') + 2);
    const target = source.startsWith('/') ? undefined : resolveWikiPath('', source);
    return target === undefined ? undefined : { target, shown: source };
  }
  return undefined;
}

/** Who took the target away, as a message names it. */
export type RemovedBy = 'this commit' | 'this pull request';

const why = (target: string, removed: RemovedTargets, by: RemovedBy): string => {
  const to = removed.get(target);
  return to === undefined ? `${by} deletes ${target}` : `${by} moves ${target} to ${to}`;
};

/** The diagnostic again, its message saying which deletion or move broke it; undefined when none did. */
function explained(d: Diagnostic, removed: RemovedTargets, by: RemovedBy): Diagnostic | undefined {
  const pointed = targetOf(d);
  if (pointed === undefined || !removed.has(pointed.target)) return undefined;
  const message =
    d.code === 'broken-link'
      ? `broken markdown link: ${cutValue(pointed.shown)} (${why(pointed.target, removed, by)})`
      : `${d.message} (${why(pointed.target, removed, by)})`;
  return { ...d, message };
}

/** Diagnostics of staged pages, those broken by a deletion or move in this commit saying so. */
export const explainRemovals = (diagnostics: readonly Diagnostic[], removed: RemovedTargets, by: RemovedBy = 'this commit'): Diagnostic[] =>
  removed.size === 0 ? [...diagnostics] : diagnostics.map((d) => explained(d, removed, by) ?? d);

/**
 * Pages of the staged tree, outside `skip` (the pages validated already), that link to or cite
 * something this commit takes away: one error per such link or source, nothing else about them.
 */
export async function pagesBrokenByRemovals(
  git: GitCommandManager,
  workspace: Pick<Workspace, 'wikiPrefix'>,
  layout: WikiLayout,
  removed: RemovedTargets,
  skip: ReadonlySet<string>,
  by: RemovedBy = 'this commit',
): Promise<Diagnostic[]> {
  if (removed.size === 0) return [];
  // Any link to a path holds its last part: search for those, then let the validator judge.
  const names = [...removed.keys()].map((p) => p.slice(p.lastIndexOf('/') + 1));
  const pages = new Set(layout.pages);
  const candidates = (await git.stagedFilesContaining(names, workspace.wikiPrefix))
    .map((p) => wikiPathOf(workspace, p))
    .filter((p): p is string => p !== undefined && pages.has(p) && !skip.has(p) && !isIndexFile(p));
  const out: Diagnostic[] = [];
  await layout.tree.readEach(candidates, (path, read) => {
    if (!read.ok) return;
    for (const d of validatePage(layout, { path, text: read.text })) {
      const broken = explained(d, removed, by);
      if (broken) out.push(broken);
    }
  });
  return out;
}
