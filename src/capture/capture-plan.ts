// Which files a capture writes, wiki-relative: the capture itself — never over an existing page (a
// different question with the same slug gets a suffix; the same question's capture, while still
// open, is updated) —
// and, for a `queries` page, the index files the index policy regenerates around it. With no wiki
// at all, a bootstrap: `schema.md`, `index.md` and the capture, so a team can start by merging it.
import type { StewardConfig } from '../config/config.js';
import { normalize } from '../ladder/text-match.js';
import type { Trace } from '../answer/trace.js';
import { isOpenCapture } from '../wiki/open-capture.js';
import { readFrontmatter } from '../wiki/frontmatter.js';
import { type IndexProvenance, affectedIndexDirs, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { layoutOf } from '../wiki/open.js';
import { type WikiTree, memoryTree, overlayTree } from '../wiki/tree.js';
import { type CaptureSource, captureStamp, captureTitle, pendingCapture, queriesPage } from './capture-content.js';
import { captureSlug } from './slug.js';

/** The outcomes that grow the wiki by a capture: nothing matched (cold), or part of it (gap). */
export const capturesOutcome = (outcome: Trace['outcome']): boolean => outcome === 'cold' || outcome === 'gap';

export interface CapturePlan {
  /** The capture file, wiki-relative. */
  path: string;
  /** Every file to write, wiki-relative, with its content. */
  files: Map<string, string>;
  /** True when the wiki did not exist and the plan creates one. */
  bootstrap: boolean;
}

const BOOTSTRAP_SCHEMA = `# Wiki Schema

## Role
main

## Categories
- \`queries/\` — questions asked of the wiki and what was found

## Tag Taxonomy (bounded)
- \`#capture\`
- \`#cold\`
- \`#gap\`

## Numeric Thresholds
- Split a page at 200+ lines.
- Restructure a category at 500+ pages.
`;

/** Up to three topic tags from the question's signal terms, as tag-safe words. */
function topicTags(trace: Trace): string[] {
  const words = trace.signal_terms
    .filter((t) => t.kind !== 'expanded')
    .map((t) =>
      normalize(t.term)
        .replace(/[^\p{Ll}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, ''),
    )
    .filter((t) => /^[\p{Ll}\p{N}][\p{Ll}\p{N}-]{1,30}$/u.test(t));
  return [...new Set(words)].slice(0, 3);
}

/**
 * The title of the capture still open at `path` (see isOpenCapture), else undefined: a page a person
 * wrote, or a capture a reviewer has answered, is never written over, whatever its title.
 */
async function openCaptureTitle(tree: WikiTree, path: string): Promise<string | undefined> {
  let title: string | undefined;
  await tree.readEach([path], (_, file) => {
    if (!file.ok) return;
    const fm = readFrontmatter(file.text);
    if (fm.kind === 'ok' && typeof fm.data.title === 'string' && isOpenCapture(fm.data)) title = fm.data.title;
  });
  return title;
}

/**
 * `provenance`: tells index files a person has edited from stale ones (see index-provenance.ts), as
 * `index --check` does, so the capture never writes over them.
 */
export async function planCapture(
  tree: WikiTree | undefined,
  config: StewardConfig,
  trace: Trace,
  source: CaptureSource,
  now: Date,
  provenance?: IndexProvenance,
): Promise<CapturePlan> {
  const input = { trace, source, now };
  const slug = captureSlug(trace.question.split('\n')[0] ?? trace.question);
  const bootstrap = tree === undefined;
  const base = tree ?? memoryTree('', new Map([['schema.md', BOOTSTRAP_SCHEMA]]));
  const files = new Map<string, string>(bootstrap ? [['schema.md', BOOTSTRAP_SCHEMA]] : []);

  if (config.capture.mode === 'pending') {
    const path = `.wiki-pending/${captureStamp(now)}-${slug}.md`;
    files.set(path, pendingCapture(input));
    return { path, files, bootstrap };
  }

  const title = captureTitle(trace.question);
  let path = `queries/${slug}.md`;
  for (let n = 2; base.files.has(path) && (await openCaptureTitle(base, path)) !== title; n++) path = `queries/${slug}-${n}.md`;
  files.set(path, queriesPage(input, topicTags(trace)));
  return { path, files: await withIndexFiles(base, config, files, path, bootstrap, provenance), bootstrap };
}

/**
 * A capture page as it stands, over `tree`, with the index files the policy regenerates around it:
 * what a capture branch holds, when it is opened and whenever it is rebuilt on a newer base.
 */
export async function captureFiles(tree: WikiTree, config: StewardConfig, page: string, content: string): Promise<Map<string, string>> {
  return withIndexFiles(tree, config, new Map([[page, content]]), page, false);
}

/** `bootstrap`: the capture starts a new wiki, with generated index files from the start. */
async function withIndexFiles(
  tree: WikiTree,
  config: StewardConfig,
  files: Map<string, string>,
  page: string,
  bootstrap: boolean,
  provenance?: IndexProvenance,
): Promise<Map<string, string>> {
  const policy = bootstrap ? 'always' : config.indexes;
  const plans = await planIndexFiles(layoutOf(overlayTree(tree, files), config), { policy, onlyDirs: affectedIndexDirs([page]), provenance });
  for (const plan of outdatedIndexFiles(plans, { adopt: bootstrap })) files.set(plan.path, plan.expected);
  return files;
}
