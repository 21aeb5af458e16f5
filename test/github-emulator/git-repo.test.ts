// The emulator's repository writes objects and refs in this process, in git's own on-disk format:
// git must read everything it writes as its own (fsck, cat-file, for-each-ref), ids must be the
// ones git computes, and what git packed must still be read (through git).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type GitIdent, GitRepo } from './git-repo.js';
import { looseObjectHeader, writeLooseObject } from './loose-objects.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): GitRepo {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-repo-test-'));
  dirs.push(dir);
  return GitRepo.init(path.join(dir, 'r.git'), 'main');
}

const git = (r: GitRepo, args: string[], input?: string, env: Record<string, string> = {}) =>
  execFileSync('git', args, { input, env: { ...process.env, GIT_DIR: r.dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, ...env } }).toString('utf8');

const who: GitIdent = { name: 'Ada Lovelace', email: 'ada@example.com', time: 1_700_000_000, tz: '+0130' };

/** A small history: a nested tree with an executable and a symlink, one commit, one signed commit on top. */
function history(r: GitRepo) {
  const tree = r.buildTree(null, [
    { path: 'wiki/index.md', content: '# Index\n' },
    { path: 'wiki/how-to/deploy.md', content: 'Run `make deploy`. ünïcödé\n' },
    { path: 'run.sh', mode: '100755', content: '#!/bin/sh\n' },
    { path: 'link', mode: '120000', content: 'wiki/index.md' },
  ]);
  const first = r.commitTree(tree, [], 'First\n\nwith a body', who, who);
  const second = r.writeSignedCommit(tree, [first], 'Signed', who, who, () => '-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----');
  return { tree, first, second };
}

describe('the emulator repository writes what git writes', () => {
  it('objects: the ids git computes, and a repository fsck --strict accepts', () => {
    const r = repo();
    const { tree, first, second } = history(r);
    expect(r.updateRef('refs/heads/main', second, '')).toBe(true);
    git(r, ['fsck', '--strict', '--no-dangling']);
    expect(git(r, ['hash-object', '--stdin'], 'Run `make deploy`. ünïcödé\n').trim()).toBe(r.lsTree(tree, { path: 'wiki/how-to/deploy.md' })[0]?.sha);
    expect(git(r, ['rev-parse', `${first}^{tree}`]).trim()).toBe(tree);
    // commit-tree, given the same tree, parent, identities and message, makes the same commit.
    const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_AUTHOR_DATE: `@${who.time} ${who.tz}` };
    const byGit = git(r, ['commit-tree', '--no-gpg-sign', tree], 'First\n\nwith a body\n', {
      ...env,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_COMMITTER_DATE: `@${who.time} ${who.tz}`,
    });
    expect(byGit.trim()).toBe(first);
    expect(git(r, ['cat-file', '-p', second])).toContain('gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n');
    expect(r.readCommit(second).signature).toBe('-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----');
    // ls-tree's own listing, entry for entry.
    const ours = r.lsTree(tree, { recursive: true, showTrees: true }).map((e) => `${e.mode} ${e.type} ${e.sha} ${e.size ?? '-'}\t${e.path}`);
    const theirs = git(r, ['ls-tree', '-r', '-t', '-l', '--full-tree', tree])
      .trim()
      .split('\n')
      .map((l) => l.replace(/ +/g, ' ').replace(/ (\d+|-)\t/, ' $1\t'));
    expect(ours).toEqual(theirs);
  });

  it('an identity git would clean, and a mode mismatch, are left to git', () => {
    const r = repo();
    const tree = r.buildTree(null, [{ path: 'a.md', content: 'a\n' }]);
    const odd: GitIdent = { ...who, name: ' <Eve> ', email: 'eve@example.com>' };
    const sha = r.commitTree(tree, [], 'x', odd, odd);
    expect(r.readCommit(sha).author.name).toBe('Eve');
    git(r, ['fsck', '--strict', '--no-dangling', sha]);
    const blob = r.lsTree(tree)[0]?.sha ?? '';
    expect(() => r.mktree([{ mode: '100644', type: 'tree', sha: blob, name: 'x' }])).toThrow(/mktree/);
  });

  it('what git packs is still read, and packed refs still move and go', () => {
    const r = repo();
    const { tree, first, second } = history(r);
    r.updateRef('refs/heads/main', second, '');
    r.updateRef('refs/heads/topic/a', first, '');
    const before = { listing: r.lsTree(tree, { recursive: true }), commit: r.readCommit(second), blob: r.readBlob(r.lsTree(tree)[0]?.sha ?? '') };
    git(r, ['repack', '-a', '-d', '-q']);
    git(r, ['prune-packed']);
    git(r, ['pack-refs', '--all']);
    expect(existsSync(path.join(r.dir, 'refs/heads/main'))).toBe(false);
    expect(r.lsTree(tree, { recursive: true })).toEqual(before.listing);
    expect(r.readCommit(second)).toEqual(before.commit);
    expect(r.objectType(tree)).toBe('tree');
    expect(r.readBlob(r.lsTree(tree)[0]?.sha ?? '')).toEqual(before.blob);
    expect(r.updateRef('refs/heads/main', first, second)).toBe(true);
    expect(r.deleteRef('refs/heads/topic/a', first)).toBe(true);
    expect(git(r, ['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(`refs/heads/main ${first}\n`);
  });

  it('refs: compare-and-swap, a held lock, a name in the way, and empty folders removed', () => {
    const r = repo();
    const { first, second } = history(r);
    expect(r.updateRef('refs/heads/capture/x', first, '')).toBe(true);
    expect(r.updateRef('refs/heads/capture/x', second, '')).toBe(false);
    expect(r.updateRef('refs/heads/capture/x', second, second)).toBe(false);
    expect(r.updateRef('refs/heads/capture/x', second, first)).toBe(true);
    // refs/heads/capture/x exists: neither refs/heads/capture nor refs/heads/capture/x/y can.
    expect(r.updateRef('refs/heads/capture', first)).toBe(false);
    expect(r.updateRef('refs/heads/capture/x/y', first)).toBe(false);
    writeFileSync(path.join(r.dir, 'refs/heads/capture/x.lock'), '');
    expect(r.updateRef('refs/heads/capture/x', first)).toBe(false);
    rmSync(path.join(r.dir, 'refs/heads/capture/x.lock'));
    expect(r.updateRef('refs/heads/capture/x', '0123456789012345678901234567890123456789')).toBe(false);
    expect(r.deleteRef('refs/heads/capture/x', first)).toBe(false);
    expect(r.deleteRef('refs/heads/capture/x', second)).toBe(true);
    expect(existsSync(path.join(r.dir, 'refs/heads/capture'))).toBe(false);
    expect(existsSync(path.join(r.dir, 'refs/heads'))).toBe(true);
    expect(r.deleteRef('refs/heads/capture/x')).toBe(true);
    expect(r.deleteRef('refs/heads/capture/x', second)).toBe(false);
    // Now the folder is gone, the shorter name can be made.
    expect(r.updateRef('refs/heads/capture', first, '')).toBe(true);
    git(r, ['fsck', '--strict', '--no-dangling']);
    expect(git(r, ['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(`refs/heads/capture ${first}\n`);
  });
});

describe('loose objects', () => {
  it('reads an object’s header even when its deflate stream opens with a block’s code tables', () => {
    const r = repo();
    const objects = path.join(r.dir, 'objects');
    // Varied text makes zlib open with a dynamic block, whose code tables come before any byte of the header.
    const text = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i * 7919} ${(i * 104729).toString(36)} ${'xyzq'.repeat(i % 5)}`).join('\n'));
    const sha = writeLooseObject(objects, 'blob', text);
    expect(looseObjectHeader(objects, sha)).toEqual({ type: 'blob', size: text.length });
    expect(git(r, ['cat-file', '-s', sha]).trim()).toBe(String(text.length));
    expect(looseObjectHeader(objects, '0'.repeat(40))).toBeUndefined();
  });
});
