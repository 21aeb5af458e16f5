// Reading an archive the Actions cache hands back, which is untrusted input: whoever could write a
// cache entry this run can read chose its bytes. @actions/cache would extract it with the system
// tar and `-P` in the workspace, which writes absolute paths, `..` paths and paths through
// symbolic links it has just made, wherever the runner's user can write. So the steward never lets
// it extract: it reads the archive here, in memory and bounded, with node-tar's parser (never its
// extraction), and keeps only regular files with the names it asks for. Nothing in the archive becomes a path, a link or a command.
import { execFile } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { Parser } from 'tar/parse';

/** How the archive was compressed: what @actions/cache chose when it saved it (zstd when the runner has it). */
export type Compression = 'zstd-without-long' | 'gzip';

/** The archive's tar bytes, at most `limit` of them; an error names what was wrong. */
export async function decompress(archive: Buffer, compression: Compression, limit: number): Promise<Buffer> {
  if (compression === 'gzip') return gunzipSync(archive, { maxOutputLength: limit });
  // The archive is zstd's input on stdin, never an argument: no byte of it reaches a command line.
  return new Promise((resolve, reject) => {
    const child = execFile('zstd', ['-d', '-c', '-q'], { encoding: 'buffer', maxBuffer: limit }, (error, stdout) =>
      error ? reject(new Error(`zstd could not decompress it: ${error.message.split('\n')[0]}`)) : resolve(stdout),
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(archive);
  });
}

/** The entry types node-tar gives a regular file's bytes: type '0', the old NUL and contiguous '7'. */
const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);

/** The two bytes node-tar takes for gzip at an archive's start. */
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The regular files of a tar archive (ustar, pax as `tar --posix` writes, GNU long names) whose
 * names `wanted` accepts, by name, read by node-tar's parser into memory: no more bytes than the
 * archive's own, which `decompress` bounded. Other members (folders, links, devices, other names)
 * are skipped, never made. A corrupt header, an archive cut short or no tar at all is an error.
 */
export async function regularFiles(tar: Buffer, wanted: (name: string) => boolean): Promise<Map<string, Buffer>> {
  // The bytes are decompressed already, within the bound. node-tar would decompress again, whole and in
  // memory before its ratio check, what starts like gzip (no option turns that off), zstd or brotli.
  if (tar[0] === GZIP_MAGIC[0] && tar[1] === GZIP_MAGIC[1]) throw new Error('the tar archive is compressed twice');
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    let ended = false;
    const parser = new Parser({
      // Every warning (a wrong checksum, a truncated member, no tar at all) is an error, not a skipped member.
      strict: true,
      zstd: false,
      brotli: false,
      filter: (name, entry) => 'type' in entry && REGULAR.has(entry.type) && wanted(name),
      onReadEntry: (entry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => files.set(entry.path, Buffer.concat(chunks)));
      },
    });
    parser.on('eof', () => (ended = true));
    parser.on('error', (error: Error) => reject(new Error(`the tar archive is corrupt: ${error.message}`)));
    // GNU tar and node-tar accept an archive that stops between members; one cut there may have lost some.
    parser.on('end', () => (ended ? resolve(files) : reject(new Error('the tar archive ends without its end-of-archive blocks'))));
    parser.end(tar);
  });
}
