// Cache archives as @actions/cache makes them (a tar, zstd-compressed, members named relative to
// the workspace), read and written with the system's tar and zstd, and hostile ones written member
// by member (ustar headers of our own), with the names and links a hostile writer would choose.
import { spawnSync } from 'node:child_process';

function run(command: string, args: string[], input?: Buffer): Buffer {
  const result = spawnSync(command, args, { input, maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.toString()}`);
  return result.stdout;
}

export const zstd = (tar: Buffer): Buffer => run('zstd', ['-c', '-q'], tar);
export const unzstd = (archive: Buffer): Buffer => run('zstd', ['-d', '-c', '-q'], archive);

/** The member names of a zstd tar archive, as the system's tar lists them. */
export const membersOf = (archive: Buffer): string[] => run('tar', ['-tf', '-'], unzstd(archive)).toString('utf8').split('\n').filter(Boolean);

/** One member's content, as the system's tar extracts it to stdout. */
export const memberOf = (archive: Buffer, name: string): Buffer => run('tar', ['-xOf', '-', name], unzstd(archive));

export type Member = { name: string; data: Buffer | string } | { name: string; symlinkTo: string } | { name: string; folder: true };

/** A ustar archive of these members, in this order, ended by its two zero blocks. */
export function tarOf(members: readonly Member[]): Buffer {
  const parts: Buffer[] = [];
  for (const m of members) {
    const data = 'data' in m ? Buffer.from(m.data) : Buffer.alloc(0);
    const header = Buffer.alloc(512);
    header.write(m.name, 0, 100, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('symlinkTo' in m ? '2' : 'folder' in m ? '5' : '0', 156);
    if ('symlinkTo' in m) header.write(m.symlinkTo, 157, 100, 'utf8');
    header.write('ustar\0' + '00', 257, 'latin1');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    parts.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
