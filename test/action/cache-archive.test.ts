// Reading a restored cache archive (src/action/cache-archive.ts) against archives the system's tar
// writes as @actions/cache makes them (`--posix`: pax headers for long names), GNU's own and hostile ones.
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
  async function longNamedFolder(): Promise<{ dir: string; deep: string }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-tar-'));
    dirs.push(dir);
    const deep = `${'a-folder-with-a-long-name/'.repeat(5)}snapshots`;
    await mkdir(path.join(dir, deep), { recursive: true });
    await writeFile(path.join(dir, deep, 'catalog-0123456789abcdef.bin'), 'snapshot');
    await writeFile(path.join(dir, deep, 'other.txt'), 'other');
    await symlink('/etc/passwd', path.join(dir, deep, 'catalog-fedcba9876543210.bin'));
    return { dir, deep };
  }

  it.each([
    ["GNU tar's pax archive (as @actions/cache writes it)", '--posix'],
    ["GNU tar's own format (long names in ././@LongLink members)", '--format=gnu'],
  ])('keeps the regular files it is asked for from %s, long names included, and makes nothing of a link', async (_, format) => {
    const { dir, deep } = await longNamedFolder();
    const tar = execFileSync('tar', [format, '-cf', '-', '-C', dir, deep]);
    const files = await regularFiles(tar, (name) => name.endsWith('.bin'));
    expect([...files.keys()]).toEqual([`${deep}/catalog-0123456789abcdef.bin`]);
    expect(files.get(`${deep}/catalog-0123456789abcdef.bin`)!.toString()).toBe('snapshot');
  });

  it('refuses an archive whose header checksum is wrong, that is cut short or that is no tar', async () => {
    const tar = tarOf([{ name: 'catalog-0123456789abcdef.bin', data: 'x'.repeat(600) }]);
    const corrupt = Buffer.from(tar);
    corrupt[0] = 0x5a;
    await expect(regularFiles(corrupt, () => true)).rejects.toThrow(/checksum/);
    await expect(regularFiles(tar.subarray(0, 700), () => true)).rejects.toThrow(/truncated/i);
    await expect(regularFiles(tar.subarray(0, 1536), () => true)).rejects.toThrow(/end-of-archive/);
    await expect(regularFiles(Buffer.from('not a tar archive'), () => true)).rejects.toThrow(/unrecognized archive format/i);
  });

  it('refuses a tar compressed once more rather than let the parser decompress it without a bound', async () => {
    const { gzipSync } = await import('node:zlib');
    const tar = tarOf([{ name: 'catalog-0123456789abcdef.bin', data: 'snapshot' }]);
    await expect(regularFiles(gzipSync(tar), () => true)).rejects.toThrow(/compressed twice/);
    await expect(regularFiles(zstd(tar), () => true)).rejects.toThrow(/unrecognized archive format/i);
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
