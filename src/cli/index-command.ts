import { createTwoFilesPatch } from 'diff';
import { requireWikiRoot } from '../config/workspace.js';
import { type IndexFilePlan, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { workspaceIndexProvenance } from '../wiki/index-provenance.js';
import { openWikiLayout } from '../wiki/open.js';
import { removeStaleTempFiles, writeWikiFileAtomically } from '../wiki/write-files.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

export interface IndexOptions {
  wiki?: string;
  check: boolean;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export async function indexCommand(io: CliIo, options: IndexOptions): Promise<number> {
  const workspace = await openCliWorkspace(io, options.wiki);
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  const provenance = workspaceIndexProvenance(workspace);
  const plans = await planIndexFiles(layout, { policy: workspace.config.indexes, provenance });
  // Running `index` is the request to keep generated index files: missing ones count.
  const outdated = outdatedIndexFiles(plans, { adopt: true });
  for (const p of plans.filter((p) => p.status === 'hand-written')) {
    io.stderr(
      p.handEdited
        ? `${p.path}: edited by hand since it was generated; left alone ` +
            "(delete it and run 'wiki-steward index' to regenerate it, or set 'indexes: always' in .wiki-steward.yml)"
        : `${p.path}: hand-written index, left alone (set 'indexes: always' in .wiki-steward.yml to regenerate it)`,
    );
  }
  if (options.check) {
    if (outdated.length > 0) io.stdout(outdated.map(unifiedDiff).join(''));
    io.stderr(
      outdated.length === 0
        ? `${plural(plans.length, 'index file', 'index files')} up to date`
        : `${outdated.length} of ${plural(plans.length, 'index file is', 'index files are')} stale: run 'wiki-steward index' to regenerate them`,
    );
    return outdated.length > 0 ? EXIT.faults : EXIT.ok;
  }
  // Temp files a killed run left beside the files it was writing.
  const removed = await removeStaleTempFiles(wikiRoot, layout.tree.tempFiles ?? []);
  if (removed.length > 0) io.stderr(`${plural(removed.length, 'temp file', 'temp files')} left by an interrupted run removed`);
  for (const p of outdated) await writeWikiFileAtomically(wikiRoot, p.path, p.expected);
  await provenance.recordWritten(outdated.map((p) => ({ path: p.path, content: p.expected })));
  io.stderr(`${plural(outdated.length, 'index file', 'index files')} written, ${plans.length - outdated.length} unchanged`);
  return EXIT.ok;
}

export const unifiedDiff = (p: IndexFilePlan): string =>
  createTwoFilesPatch(`a/${p.path}`, `b/${p.path}`, p.current ?? '', p.expected, undefined, undefined, { context: 3 });
