// The pre-commit hook's work: validate the staged content of changed pages (links and sources
// resolved against the staged tree), regenerate the index files they affect from the staged tree,
// and stage them. Returns what it found so the caller can block the commit.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Workspace, repoPathOf, requireWikiRoot, wikiPathOf } from '../config/workspace.js';
import { type Diagnostic, hasErrors } from '../wiki/diagnostics.js';
import { affectedIndexDirs, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { layoutOf } from '../wiki/open.js';
import { validateWiki } from '../wiki/validator.js';
import { writeWikiFileAtomically } from '../wiki/write-files.js';
import type { GitCommandManager } from '../git/git-command-manager.js';
import { loadStagedTree } from './staged-tree.js';

export interface PreCommitResult {
  validated: string[];
  diagnostics: Diagnostic[];
  /** Index files regenerated and staged (wiki-relative). */
  staged: string[];
  handWritten: string[];
  /** Regenerated index files whose working copy had unstaged edits, left as they were. */
  keptEdits: string[];
}

export async function runPreCommit(git: GitCommandManager, workspace: Workspace): Promise<PreCommitResult> {
  const { repoRoot, config, wikiPrefix } = workspace;
  const wikiRoot = requireWikiRoot(workspace);
  const changed = (await git.stagedChanges()).map((p) => wikiPathOf(workspace, p)).filter((p): p is string => p !== undefined && p.endsWith('.md'));
  const empty: PreCommitResult = { validated: [], diagnostics: [], staged: [], handWritten: [], keptEdits: [] };
  if (changed.length === 0) return empty;

  const layout = layoutOf(await loadStagedTree(git, repoRoot, wikiPrefix), config);
  const pageSet = new Set(layout.pages);
  const stagedPages = changed.filter((p) => pageSet.has(p));
  const { diagnostics, checked } = await validateWiki(layout, stagedPages);

  // Pages added, edited or deleted change their folder's index and every ancestor's. A commit that
  // will be blocked gets no index changes staged behind the writer's back.
  const touchedPages = changed.filter((p) => pageSet.has(p) || !layout.tree.files.has(p));
  if (touchedPages.length === 0 || config.indexes === 'never' || hasErrors(diagnostics)) return { ...empty, validated: checked, diagnostics };
  const plans = await planIndexFiles(layout, { policy: config.indexes, onlyDirs: affectedIndexDirs(touchedPages) });
  const outdated = outdatedIndexFiles(plans);
  await git.stageContents(outdated.map((p) => ({ path: repoPathOf(workspace, p.path), content: p.expected })));
  // The working copy follows the staged index file unless it holds edits of its own, which stay.
  const keptEdits: string[] = [];
  for (const p of outdated) {
    const working = await readFile(path.join(wikiRoot, p.path), 'utf8').catch(() => undefined);
    if (working === p.current || working === p.expected) await writeWikiFileAtomically(wikiRoot, p.path, p.expected);
    else keptEdits.push(p.path);
  }
  return {
    validated: checked,
    diagnostics,
    staged: outdated.map((p) => p.path),
    keptEdits,
    handWritten: plans.filter((p) => p.status === 'hand-written').map((p) => p.path),
  };
}
