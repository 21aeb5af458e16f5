// Small wikis written to temp folders, page by page, in the upstream format.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export function page(fields: { title: string; type: string; body?: string; extra?: string }): string {
  return `---
title: ${fields.title}
type: ${fields.type}
tags: [testing]
sources: [conversation]
created: "2026-05-01T10:00:00Z"
updated: "2026-05-01T10:00:00Z"
quality:
  accuracy: 4
  completeness: 3
  signal: 4
  interlinking: 2
  overall: 3.25
  rated_at: "2026-05-01T10:00:00Z"
  rated_by: human
${fields.extra ?? ''}---
${fields.body ?? `${fields.title} in one paragraph.`}
`;
}

export async function makeWiki(files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ws-wiki-'));
  await writeWikiFiles(root, { 'schema.md': '# Wiki Schema\n', ...files });
  return root;
}

export async function writeWikiFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
}
