// Writing generated files into a wiki without ever leaving one half-written: each file is written
// beside its target and renamed over it, so a reader sees the old bytes or the new, never a mix.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveWikiPath } from './validator.js';

export async function writeWikiFileAtomically(wikiRoot: string, relPath: string, content: string): Promise<void> {
  const safe = resolveWikiPath('', relPath);
  if (safe === undefined || safe === '' || safe !== relPath) throw new Error(`refusing to write outside the wiki root: ${relPath}`);
  const target = path.join(wikiRoot, safe);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.wiki-steward-${process.pid}.tmp`;
  try {
    await writeFile(temp, content);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
