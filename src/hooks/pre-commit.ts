// The pre-commit hook's work: validate the staged content of changed pages (links and sources
// resolved against the staged tree), find the pages a deletion or move breaks, regenerate the index
// files the change affects from the staged tree, and stage them. Returns what it found so the
// caller can block the commit.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Workspace, repoPathOf, requireWikiRoot, wikiPathOf } from '../config/workspace.js';
import { type Diagnostic, hasErrors } from '../wiki/diagnostics.js';
import { affectedIndexDirs, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { workspaceIndexProvenance } from '../wiki/index-provenance.js';
import { layoutOf } from '../wiki/open.js';
import { applyRules } from '../wiki/rules.js';
import { validateWiki } from '../wiki/validator.js';
import { writeWikiFileAtomically } from '../wiki/write-files.js';
import type { GitCommandManager, StagedEntry } from '../git/git-command-manager.js';
import { partialCommitRealIndex, stageInRealIndexToo } from './partial-commit.js';
import { explainRemovals, pagesBrokenByRemovals, removedTargets } from '../wiki/removed-targets.js';
import { loadStagedTree } from './staged-tree.js';

export interface PreCommitResult {
  validated: string[];
  diagnostics: Diagnostic[];
  /** Pages not in the commit that link to (or cite) a file it deletes or moves (wiki-relative). */
  brokenByRemovals: string[];
  /** Index files regenerated and staged (wiki-relative). */
  staged: string[];
  handWritten: string[];
  /** Regenerated index files whose working copy had unstaged edits, left as they were. */
  keptEdits: string[];
  /**
   * In a partial commit (`git commit <paths>`): regenerated index files of which the user had staged
   * another version, which stays staged for a later commit (wiki-relative).
   */
  keptStaged: string[];
}

export async function runPreCommit(git: GitCommandManager, workspace: Workspace): Promise<PreCommitResult> {
  const { repoRoot, config, wikiPrefix } = workspace;
  const wikiRoot = requireWikiRoot(workspace);
  const empty: PreCommitResult = { validated: [], diagnostics: [], brokenByRemovals: [], staged: [], handWritten: [], keptEdits: [], keptStaged: [] };
  const changedInWiki = (await git.stagedChanges()).map((p) => wikiPathOf(workspace, p)).filter((p): p is string => p !== undefined);
  if (changedInWiki.length === 0) return empty;

  const layout = layoutOf(await loadStagedTree(git, repoRoot, wikiPrefix), config);
  // A file taken away (any file: pages link to images and cite raw sources) can break pages nobody staged.
  const removed = await removedTargets(git, workspace, layout.tree, changedInWiki);
  const changed = changedInWiki.filter((p) => p.endsWith('.md'));
  if (changed.length === 0 && removed.size === 0) return empty;

  const pageSet = new Set(layout.pages);
  const stagedPages = changed.filter((p) => pageSet.has(p));
  const validation = await validateWiki(layout, stagedPages, config.validate);
  const broken = await pagesBrokenByRemovals(git, workspace, layout, removed, new Set(validation.checked));
  const diagnostics = applyRules([...explainRemovals(validation.diagnostics, removed), ...broken], config.validate);
  const found = { ...empty, validated: validation.checked, diagnostics, brokenByRemovals: [...new Set(broken.map((d) => d.path))] };

  // Pages added, edited or deleted change their folder's index and every ancestor's. A commit that
  // will be blocked gets no index changes staged behind the writer's back.
  const touchedPages = changed.filter((p) => pageSet.has(p) || !layout.tree.files.has(p));
  if (touchedPages.length === 0 || config.indexes === 'never' || hasErrors(diagnostics)) return found;
  // A generated index file a person edited is theirs (see index-provenance.ts): never restaged over.
  const provenance = workspaceIndexProvenance(workspace);
  const plans = await planIndexFiles(layout, {
    policy: config.indexes,
    onlyDirs: affectedIndexDirs(touchedPages),
    provenance,
    summaries: provenance.summaries,
  });
  const outdated = outdatedIndexFiles(plans);
  const files = outdated.map((p) => ({ path: repoPathOf(workspace, p.path), content: p.expected }));
  const realIndex = await partialCommitRealIndex(git);
  const before = realIndex ? await git.indexEntries(files.map((f) => f.path)) : new Map<string, StagedEntry>();
  const stagedEntries = await git.stageContents(files);
  const keptStaged = realIndex ? await stageInRealIndexToo(git, realIndex, before, stagedEntries) : [];
  // The working copy follows the staged index file unless it holds edits of its own, which stay.
  const keptEdits: string[] = [];
  for (const p of outdated) {
    const working = await readFile(path.join(wikiRoot, p.path), 'utf8').catch(() => undefined);
    if (working === p.current || working === p.expected) await writeWikiFileAtomically(wikiRoot, p.path, p.expected);
    else keptEdits.push(p.path);
  }
  return {
    ...found,
    staged: outdated.map((p) => p.path),
    keptEdits,
    keptStaged: keptStaged.map((p) => wikiPathOf(workspace, p) ?? p),
    handWritten: plans.filter((p) => p.status === 'hand-written').map((p) => p.path),
  };
}
