import { createTwoFilesPatch } from 'diff';
import { requireWikiRoot } from '../config/workspace.js';
import { type IndexFilePlan, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { openWikiLayout } from '../wiki/open.js';
import { writeWikiFileAtomically } from '../wiki/write-files.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

export interface IndexOptions {
  wiki?: string;
  check: boolean;
}

export async function indexCommand(io: CliIo, options: IndexOptions): Promise<number> {
  const workspace = await openCliWorkspace(io, options.wiki);
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  const plans = await planIndexFiles(layout, { policy: workspace.config.indexes });
  // Running `index` is the request to keep generated index files: missing ones count.
  const outdated = outdatedIndexFiles(plans, { adopt: true });
  for (const p of plans.filter((p) => p.status === 'hand-written')) {
    io.stderr(`${p.path}: hand-written index, left alone (set 'indexes: always' in .wiki-steward.yml to regenerate it)`);
  }
  if (options.check) {
    if (outdated.length > 0) io.stdout(outdated.map(unifiedDiff).join(''));
    io.stderr(outdated.length === 0 ? `${plans.length} index files up to date` : `${outdated.length} of ${plans.length} index files are stale: run 'wiki-steward index' to regenerate them`);
    return outdated.length > 0 ? EXIT.faults : EXIT.ok;
  }
  for (const p of outdated) await writeWikiFileAtomically(wikiRoot, p.path, p.expected);
  io.stderr(`${outdated.length} index files written, ${plans.length - outdated.length} unchanged`);
  return EXIT.ok;
}

export const unifiedDiff = (p: IndexFilePlan): string =>
  createTwoFilesPatch(`a/${p.path}`, `b/${p.path}`, p.current ?? '', p.expected, undefined, undefined, { context: 3 });
