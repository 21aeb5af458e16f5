// Reading a restored cache archive (src/action/cache-archive.ts) against archives the system's tar
// writes as @actions/cache makes them (`--posix`: pax headers for long names) and hostile ones.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decompress, regularFiles } from '../../src/action/cache-archive.js';
import { tarOf, zstd } from '../actions-cache-service/archives.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('regularFiles', () => {
  it("keeps the regular files it is asked for from GNU tar's pax archive, long names included, and makes nothing of a link", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-tar-'));
    dirs.push(dir);
    const deep = `${'a-folder-with-a-long-name/'.repeat(5)}snapshots`;
    await mkdir(path.join(dir, deep), { recursive: true });
    await writeFile(path.join(dir, deep, 'catalog-0123456789abcdef.bin'), 'snapshot');
    await writeFile(path.join(dir, deep, 'other.txt'), 'other');
    await symlink('/etc/passwd', path.join(dir, deep, 'catalog-fedcba9876543210.bin'));
    const tar = execFileSync('tar', ['--posix', '-cf', '-', '-C', dir, deep]);
    const files = regularFiles(tar, (name) => name.endsWith('.bin'));
    expect([...files.keys()]).toEqual([`${deep}/catalog-0123456789abcdef.bin`]);
    expect(files.get(`${deep}/catalog-0123456789abcdef.bin`)!.toString()).toBe('snapshot');
  });

  it('refuses an archive whose header checksum is wrong or that is cut short', () => {
    const tar = tarOf([{ name: 'catalog-0123456789abcdef.bin', data: 'x'.repeat(600) }]);
    const corrupt = Buffer.from(tar);
    corrupt[0] = 0x5a;
    expect(() => regularFiles(corrupt, () => true)).toThrow(/wrong checksum/);
    expect(() => regularFiles(tar.subarray(0, 700), () => true)).toThrow(/cut short/);
    expect(() => regularFiles(tar.subarray(0, 1536), () => true)).toThrow(/end-of-archive/);
  });
});

describe('decompress', () => {
  it('unpacks zstd and gzip within the limit and refuses past it or on garbage', async () => {
    const tar = tarOf([{ name: 'catalog-0123456789abcdef.bin', data: 'snapshot' }]);
    expect(await decompress(zstd(tar), 'zstd-without-long', 1 << 20)).toEqual(tar);
    const { gzipSync } = await import('node:zlib');
    expect(await decompress(gzipSync(tar), 'gzip', 1 << 20)).toEqual(tar);
    await expect(decompress(zstd(tar), 'zstd-without-long', 100)).rejects.toThrow(/zstd could not decompress it/);
    await expect(decompress(Buffer.from('garbage'), 'zstd-without-long', 1 << 20)).rejects.toThrow(/zstd could not decompress it/);
    await expect(decompress(gzipSync(tar), 'gzip', 100)).rejects.toThrow();
  });
});
