// Atomic writes (src/wiki/write-files.ts) with `removeReplaced`, as the catalog's snapshot is
// written: the old file removed just before the new one is renamed into place, never a mix of the
// two, and nothing but a regular file ever removed.
import { mkdir, mkdtemp, open, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LinkedPathError, writeWikiFileAtomically } from '../../src/wiki/write-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-steward-write-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('replaces the file with the new bytes in parts, leaves no temp file, and a reader that opened the old one reads it whole', async () => {
  const old = Buffer.alloc(100_000, 1);
  await writeFile(path.join(dir, 'catalog.bin'), old);
  const reader = await open(path.join(dir, 'catalog.bin'), 'r');
  try {
    await writeWikiFileAtomically(dir, 'catalog.bin', [Buffer.from('new '), Buffer.from('bytes')], { removeReplaced: true });
    expect(await readFile(path.join(dir, 'catalog.bin'), 'utf8')).toBe('new bytes');
    expect(await readdir(dir)).toEqual(['catalog.bin']);
    expect((await reader.readFile()).equals(old)).toBe(true);
  } finally {
    await reader.close();
  }
});

it('writes a file that was not there, as a plain write does', async () => {
  await writeWikiFileAtomically(dir, 'catalog.bin', 'first', { removeReplaced: true });
  expect(await readFile(path.join(dir, 'catalog.bin'), 'utf8')).toBe('first');
});

it('removes nothing but a file: a folder in the target place stays with its contents, and the temp file goes', async () => {
  await mkdir(path.join(dir, 'catalog.bin'));
  await writeFile(path.join(dir, 'catalog.bin', 'kept.md'), 'kept');
  await expect(writeWikiFileAtomically(dir, 'catalog.bin', 'new', { removeReplaced: true })).rejects.toThrow();
  expect(await readFile(path.join(dir, 'catalog.bin', 'kept.md'), 'utf8')).toBe('kept');
  expect(await readdir(dir)).toEqual(['catalog.bin']);
});

it('still refuses a symbolic link in the target place, and the file it points to is untouched', async () => {
  const outside = path.join(dir, 'outside.txt');
  await writeFile(outside, 'outside');
  await mkdir(path.join(dir, 'cache'));
  await symlink(outside, path.join(dir, 'cache', 'catalog.bin'));
  await expect(writeWikiFileAtomically(path.join(dir, 'cache'), 'catalog.bin', 'new', { removeReplaced: true })).rejects.toThrow(LinkedPathError);
  expect(await readFile(outside, 'utf8')).toBe('outside');
  expect(await readdir(path.join(dir, 'cache'))).toEqual(['catalog.bin']);
});
