// Whether a generated index file that is out of date is still the builder's, or holds a person's
// edits. Both look alike (generated form, not what the builder writes today); git tells them apart.
// The file is the builder's when every line of it is one the builder writes from the pages as they
// stand now, as of the last commit that changed the file, or as of that commit's parent (an index
// generated, then pages added and all committed together), counts and subfolder previews aside,
// and it drops no page or folder that all of those list; or when it is byte for byte what `index`
// last wrote in this clone (an index regenerated and not committed yet, its pages edited since).
// Anything else is a person's: an edited description, a line of their own, a deleted entry.
// Outside git, or for a file never committed, the generated-form rule stands alone.
import type { Workspace } from '../config/workspace.js';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GitCommandManager } from '../git/git-command-manager.js';
import { type BlobSummaries, type IndexFilePlan, type IndexProvenance, type ProvenanceCandidate, isRootInitTemplate, planIndexFiles } from './index-files.js';
import { type CategoryFilter, ROOT_INDEX, discoverLayout, parentDir } from './layout.js';
import { gitBlobTree } from './git-tree.js';
import type { WikiTree } from './tree.js';

export interface GitIndexProvenanceOptions {
  /** Runs in the repository (its root). */
  git: GitCommandManager;
  repoRoot: string;
  /** The wiki folder, repository-relative ('' when the wiki is the repository). */
  wikiPrefix: string;
  /** The categories the config includes or excludes, as for the layout now. */
  categories: CategoryFilter;
}

export interface GitIndexProvenance extends IndexProvenance {
  /** The page summaries its plans of past commits make: a plan of the staged tree shares them (IndexPlanOptions.summaries). */
  readonly summaries: BlobSummaries;
  /** Remembers the bytes `index` wrote (in the git folder), so its own uncommitted output is known as its own. */
  recordWritten(files: ReadonlyArray<{ path: string; content: string }>): Promise<void>;
}

const RECORD_FILE = 'wiki-steward/generated-index-files.json';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The wiki as a commit holds it, read from git's object store (nothing is checked out). */
async function commitTree(git: GitCommandManager, commit: string, repoRoot: string, wikiPrefix: string): Promise<WikiTree> {
  return gitBlobTree(git, repoRoot, wikiPrefix, await git.treeEntries(commit, wikiPrefix), `not in commit ${commit}`);
}

/** One version of an index file: its entry lines by page, and its other lines with counts and previews set aside. */
interface Version {
  entries: ReadonlyMap<string, string>;
  lines: Set<string>;
}

/** The wiki before the file's folder (or the repository) existed. */
const NOTHING: Version = { entries: new Map(), lines: new Set() };

/** Counts and subfolder previews change with every page added anywhere below: they carry no one's words. */
const normalize = (line: string): string => (line.startsWith('  - ') ? '  - …' : line.replace(/ \u2014 \d+ pages(?:, \d+ levels deep)?$/, ' \u2014 N pages'));

function versionOf(plan: IndexFilePlan): Version {
  const entries = plan.entries ?? new Map<string, string>();
  const entryLines = new Set(entries.values());
  return {
    entries,
    lines: new Set(
      plan.expected
        .split('\n')
        .filter((l) => !entryLines.has(l))
        .map(normalize),
    ),
  };
}

/** True when every line of `current` is one of the versions' and nothing all of them hold is missing. */
function isBuilderOutput(current: string, versions: readonly Version[]): boolean {
  const pageOfLine = new Map<string, string>();
  for (const v of versions) for (const [page, line] of v.entries) pageOfLine.set(line, page);
  const listed = new Set<string>();
  const seen = new Set<string>();
  for (const line of current.split('\n')) {
    const page = pageOfLine.get(line);
    if (page !== undefined) {
      listed.add(page);
      continue;
    }
    const normalized = normalize(line);
    if (line !== '(none)' && !versions.some((v) => v.lines.has(normalized))) return false;
    seen.add(normalized);
  }
  const [first, ...rest] = versions;
  for (const page of first!.entries.keys()) {
    if (rest.every((v) => v.entries.has(page)) && !listed.has(page)) return false;
  }
  for (const line of first!.lines) {
    if (line !== '(none)' && line !== '' && rest.every((v) => v.lines.has(line)) && !seen.has(line)) return false;
  }
  return true;
}

export function gitIndexProvenance(options: GitIndexProvenanceOptions): GitIndexProvenance {
  const { git, repoRoot, wikiPrefix, categories } = options;
  const repoPath = (wikiPath: string): string => (wikiPrefix ? `${wikiPrefix}/${wikiPath}` : wikiPath);
  const recordFile = () => git.gitPath(RECORD_FILE);
  const summaries: BlobSummaries = new Map();

  async function loadRecord(): Promise<Record<string, string>> {
    try {
      const parsed = JSON.parse(await readFile(await recordFile(), 'utf8')) as { files?: unknown };
      return parsed.files && typeof parsed.files === 'object' ? (parsed.files as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  /** The index files of `indexPaths` as the builder writes them from the wiki at `revision`; undefined when there is no such revision. */
  async function rebuildAt(revision: string, indexPaths: readonly string[]): Promise<Map<string, IndexFilePlan> | undefined> {
    let tree: WikiTree;
    try {
      tree = await commitTree(git, revision, repoRoot, wikiPrefix);
    } catch {
      return undefined;
    }
    const layout = discoverLayout(tree, categories);
    const dirs = new Set(indexPaths.map((p) => (p === ROOT_INDEX ? '' : parentDir(p))));
    const plans = await planIndexFiles(layout, { policy: 'always', onlyDirs: dirs, summaries });
    return new Map(plans.map((p) => [p.path, p]));
  }

  return {
    summaries,
    async handEdited(candidates: readonly ProvenanceCandidate[]) {
      const edited = new Map<string, string>();
      const record = await loadRecord();
      const unknown = candidates.filter((c) => record[repoPath(c.path)] !== sha256(c.current) && !(c.path === ROOT_INDEX && isRootInitTemplate(c.current)));
      if (unknown.length === 0) return edited;
      let lastCommits: Map<string, string>;
      try {
        lastCommits = await git.lastCommitsTouching(unknown.map((c) => repoPath(c.path)));
      } catch {
        return edited; // not a repository, or no git: the generated-form rule stands
      }
      const byCommit = new Map<string, ProvenanceCandidate[]>();
      for (const c of unknown) {
        const commit = lastCommits.get(repoPath(c.path));
        if (commit === undefined) continue; // never committed: the generated-form rule stands
        const group = byCommit.get(commit);
        if (group) group.push(c);
        else byCommit.set(commit, [c]);
      }
      for (const [commit, group] of byCommit) {
        const paths = group.map((c) => c.path);
        // The two trees are read at once: neither waits on the other's git processes.
        const [atCommit, atParent] = await Promise.all([rebuildAt(commit, paths), rebuildAt(`${commit}^`, paths)]);
        for (const c of group) {
          const then = atCommit?.get(c.path);
          if (!then) continue; // the builder would not write this file from that commit: nothing to compare
          // Before the commit the file may not have existed (a first commit, a new folder): then
          // nothing it lists was there before, and it owes no entry to that state.
          const before = atParent?.get(c.path);
          const versions = [versionOf(c), versionOf(then), before ? versionOf(before) : NOTHING];
          if (!isBuilderOutput(c.current, versions)) edited.set(c.path, commit);
        }
      }
      return edited;
    },

    async recordWritten(files) {
      if (files.length === 0) return;
      try {
        const file = await recordFile();
        const record = await loadRecord();
        for (const f of files) record[repoPath(f.path)] = sha256(f.content);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, `${JSON.stringify({ files: record }, null, 1)}\n`);
      } catch {
        // Outside git, or a read-only git folder: without the record, git alone decides.
      }
    },
  };
}

/** The provenance of a workspace's index files, for every command and job that plans them. */
export const workspaceIndexProvenance = (workspace: Pick<Workspace, 'repoRoot' | 'wikiPrefix' | 'config'>): GitIndexProvenance =>
  gitIndexProvenance({
    git: new GitCommandManager(workspace.repoRoot),
    repoRoot: workspace.repoRoot,
    wikiPrefix: workspace.wikiPrefix,
    categories: workspace.config.categories,
  });
