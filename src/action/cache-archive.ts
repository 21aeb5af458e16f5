// Reading an archive the Actions cache hands back, which is untrusted input: whoever could write a
// cache entry this run can read chose its bytes. @actions/cache would extract it with the system
// tar and `-P` in the workspace, which writes absolute paths, `..` paths and paths through
// symbolic links it has just made, wherever the runner's user can write. So the steward never lets
// it extract: it reads the archive here, in memory and bounded, and keeps only regular files with
// the names it asks for. Nothing in the archive becomes a path, a link or a command.
import { execFile } from 'node:child_process';
import { gunzipSync } from 'node:zlib';

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

const BLOCK = 512;

/**
 * The regular files of a tar archive (ustar or pax, as `tar --posix` writes) whose names `wanted`
 * accepts, by name. Other members (folders, links, devices, other names) are skipped, never made.
 * A header whose checksum is wrong or an archive cut short ends it with an error.
 */
export function regularFiles(tar: Buffer, wanted: (name: string) => boolean): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let paxPath: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return files;
    if (!checksumHolds(header)) throw new Error(`a tar header at byte ${at} has a wrong checksum`);
    const size = octal(header.subarray(124, 136));
    const body = at + BLOCK;
    if (size === undefined || body + size > tar.length) throw new Error(`the tar member at byte ${at} is cut short or has no readable size`);
    const type = String.fromCharCode(header[156]!);
    const data = tar.subarray(body, body + size);
    if (type === 'x') {
      paxPath = paxRecords(data).get('path');
    } else if (type !== 'g') {
      const prefix = text(header.subarray(345, 500));
      const name = paxPath ?? (prefix ? `${prefix}/${text(header.subarray(0, 100))}` : text(header.subarray(0, 100)));
      paxPath = undefined;
      if ((type === '0' || type === '\0') && wanted(name)) files.set(name, Buffer.from(data));
    }
    at = body + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('the tar archive ends without its end-of-archive blocks');
}

const text = (field: Buffer): string => {
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? field.length : end);
};

/** An octal number field; undefined when it is not one (base-256 sizes are past any bound a snapshot has). */
function octal(field: Buffer): number | undefined {
  const digits = text(field).trim();
  return /^[0-7]{1,12}$/.test(digits) ? parseInt(digits, 8) : undefined;
}

/** The header's checksum: its bytes summed with the checksum field as spaces. */
function checksumHolds(header: Buffer): boolean {
  const expected = octal(header.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return expected === sum;
}

/** A pax extended header's records, `<length> <key>=<value>\n` each. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  for (let at = 0; at < data.length;) {
    const space = data.indexOf(0x20, at);
    const length = space === -1 ? NaN : Number(data.toString('latin1', at, space));
    if (!Number.isSafeInteger(length) || length <= space - at || at + length > data.length) break;
    const record = data.toString('utf8', space + 1, at + length - 1);
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}
