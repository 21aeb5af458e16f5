// Route handlers for the Git Data API (refs, blobs, trees, commits) and the contents API, backed by
// the real bare repository. One of three routes-*.ts files split by API area.
import { GitInputError } from './git-repo.js';
import { basicError, isSha, validationFailed } from './helpers.js';
import { type RouteEnv, type Route, compileRoute, routeHelpers } from './routing.js';

export function gitRoutes(env: RouteEnv): Route[] {
  const { state } = env;
  const { nonEmptyGit, refuseProtected } = routeHelpers(env);
  return [
    // -- Git Data API: refs ----------------------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/git/ref/{ref}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const ref = git.refs(full).find((r) => r.ref === full);
      if (!ref) throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: env.render.gitRef(ctx.repo.full_name, ref) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const refs = git.refs(`refs/${ctx.params.ref ?? ''}`);
      return { status: 200, body: refs.map((r) => env.render.gitRef(ctx.repo.full_name, r)) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/refs', 'contents:write', (ctx) => {
      const b = ctx.body as { ref: string; sha: string };
      const git = nonEmptyGit(ctx);
      if (!b.ref.startsWith('refs/') || b.ref.split('/').length < 3 || !git.isValidRefName(b.ref)) {
        throw basicError(422, 'Reference name is not valid', ctx.docs);
      }
      const type = git.objectType(b.sha);
      if (!type) throw basicError(422, 'Object does not exist', ctx.docs);
      if (git.refs(b.ref).some((r) => r.ref === b.ref)) throw basicError(422, 'Reference already exists', ctx.docs);
      if (b.ref.startsWith('refs/heads/') && type !== 'commit') throw basicError(422, 'Reference update failed', ctx.docs);
      if (!git.updateRef(b.ref, b.sha, '')) throw basicError(422, 'Reference already exists', ctx.docs);
      if (b.ref.startsWith('refs/heads/')) ctx.repo.pushed_at = state.now();
      const body = env.render.gitRef(ctx.repo.full_name, { ref: b.ref, sha: b.sha, type });
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('PATCH', '/repos/{owner}/{repo}/git/refs/{ref}', 'contents:write', (ctx) => {
      const b = ctx.body as { sha: string; force?: boolean };
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const current = git.refs(full).find((r) => r.ref === full);
      if (!current) throw basicError(422, 'Reference does not exist', ctx.docs);
      refuseProtected(ctx, full);
      const type = git.objectType(b.sha);
      if (!type) throw basicError(422, 'Object does not exist', ctx.docs);
      if (full.startsWith('refs/heads/') && type !== 'commit') throw basicError(422, 'Reference update failed', ctx.docs);
      if (b.force !== true && current.sha !== b.sha && !(type === 'commit' && current.type === 'commit' && git.isAncestor(current.sha, b.sha))) {
        throw basicError(422, 'Update is not a fast forward', ctx.docs);
      }
      if (!git.updateRef(full, b.sha, current.sha)) throw basicError(422, 'Reference cannot be updated', ctx.docs);
      if (full.startsWith('refs/heads/')) ctx.repo.pushed_at = state.now();
      return { status: 200, body: env.render.gitRef(ctx.repo.full_name, { ref: full, sha: b.sha, type }) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', 'contents:write', (ctx) => {
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const current = git.refs(full).find((r) => r.ref === full);
      if (!current) throw basicError(422, 'Reference does not exist', ctx.docs);
      if (full === `refs/heads/${ctx.repo.default_branch}`) throw basicError(422, 'Cannot delete the default branch', ctx.docs);
      refuseProtected(ctx, full);
      git.deleteRef(full, current.sha);
      // Deleting a pull request's head or base branch closes it.
      for (const pr of state.pulls) if (pr.repo === ctx.repo.full_name) state.refreshPull(pr);
      return { status: 204 };
    }),

    // -- Git Data API: blobs, trees, commits -------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const sha = ctx.params.file_sha ?? '';
      if (git.objectType(sha) !== 'blob') throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: env.render.blob(ctx.repo.full_name, sha) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/blobs', 'contents:write', (ctx) => {
      const b = ctx.body as { content: string; encoding?: string };
      const git = nonEmptyGit(ctx);
      const encoding = (b.encoding ?? 'utf-8').toLowerCase();
      let data: Buffer;
      if (encoding === 'utf-8' || encoding === 'utf8') data = Buffer.from(b.content, 'utf8');
      else if (encoding === 'base64') {
        if (!/^[A-Za-z0-9+/=\s]*$/.test(b.content)) throw validationFailed(ctx.docs, [{ resource: 'Blob', code: 'invalid', field: 'content' }]);
        data = Buffer.from(b.content, 'base64');
      } else {
        throw validationFailed(ctx.docs, [{ resource: 'Blob', code: 'invalid', field: 'encoding', message: `encoding must be either 'utf-8' or 'base64'` }]);
      }
      const sha = git.writeBlob(data);
      const url = `${env.render.repoApiUrl(ctx.repo)}/git/blobs/${sha}`;
      return { status: 201, body: { url, sha }, headers: { location: url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const tree = git.resolveTree(ctx.params.tree_sha ?? '');
      if (!tree) throw basicError(404, 'Not Found', ctx.docs);
      // Any value of `recursive` (even "false" or "0") turns recursion on; omit it to turn it off.
      const recursive = ctx.query.has('recursive');
      return { status: 200, body: env.render.tree(ctx.repo.full_name, tree, git.lsTree(tree, { recursive, showTrees: true })) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/trees', 'contents:write', (ctx) => {
      const b = ctx.body as {
        base_tree?: string;
        tree: Array<{ path?: string; mode?: string; type?: 'blob' | 'tree' | 'commit'; sha?: string | null; content?: string }>;
      };
      const git = nonEmptyGit(ctx);
      let base: string | null = null;
      if (b.base_tree !== undefined) {
        base = isSha(b.base_tree) && git.objectType(b.base_tree) === 'tree' ? b.base_tree : null;
        if (!base) throw basicError(422, 'GitRPC::BadObjectState', ctx.docs);
      }
      const changes = b.tree.map((e, i) => {
        if (typeof e.path !== 'string' || e.path === '') {
          throw validationFailed(ctx.docs, [{ resource: 'Tree', code: 'missing_field', field: `tree[${i}].path` }], 'Must supply a valid tree.path');
        }
        if (e.content !== undefined && e.sha !== undefined && e.sha !== null) {
          throw basicError(422, 'Must supply either tree.sha or tree.content, not both', ctx.docs);
        }
        if (e.content === undefined && e.sha === undefined) throw basicError(422, 'Must supply either tree.sha or tree.content', ctx.docs);
        if (e.mode === '040000' && e.type !== undefined && e.type !== 'tree') throw basicError(422, `tree.type must be "tree" for mode 040000`, ctx.docs);
        return {
          path: e.path,
          ...(e.mode ? { mode: e.mode } : {}),
          ...(e.type ? { type: e.type } : {}),
          ...(e.sha !== undefined ? { sha: e.sha } : {}),
          ...(e.content !== undefined ? { content: e.content } : {}),
        };
      });
      let sha: string;
      try {
        sha = git.buildTree(base, changes);
      } catch (err) {
        if (err instanceof GitInputError) {
          throw basicError(
            422,
            err.code === 'missing-path' ? 'GitRPC::BadObjectState' : err.code === 'bad-path' ? `tree.path ${err.message}` : err.message,
            ctx.docs,
          );
        }
        throw err;
      }
      const body = env.render.tree(ctx.repo.full_name, sha, git.lsTree(sha));
      return { status: 201, body, headers: { location: `${env.render.repoApiUrl(ctx.repo)}/git/trees/${sha}` } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const sha = ctx.params.commit_sha ?? '';
      if (git.objectType(sha) !== 'commit') throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: env.render.gitCommit(ctx.repo.full_name, sha) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/commits', 'contents:write', (ctx) => {
      const b = ctx.body as {
        message: string;
        tree: string;
        parents?: string[];
        author?: { name: string; email: string; date?: string };
        committer?: { name?: string; email?: string; date?: string };
        signature?: string;
      };
      const git = nonEmptyGit(ctx);
      if (!isSha(b.tree) || git.objectType(b.tree) !== 'tree') throw basicError(422, 'Tree SHA does not exist', ctx.docs);
      for (const p of b.parents ?? []) {
        if (!isSha(p) || git.objectType(p) !== 'commit') throw basicError(422, 'Parent SHA does not exist or is not a commit object', ctx.docs);
      }
      for (const who of [b.author, b.committer]) {
        if (who?.date !== undefined && Number.isNaN(Date.parse(who.date))) {
          throw validationFailed(ctx.docs, [{ resource: 'Commit', code: 'invalid', field: who === b.author ? 'author.date' : 'committer.date' }]);
        }
      }
      const record = state.createCommit({
        repo: ctx.repo.full_name,
        actor: ctx.actor.login,
        tree: b.tree,
        parents: b.parents ?? [],
        message: b.message,
        ...(b.author ? { author: b.author } : {}),
        ...(b.committer ? { committer: b.committer } : {}),
        ...(b.signature !== undefined ? { signature: b.signature } : {}),
      });
      const body = env.render.gitCommit(ctx.repo.full_name, record.sha);
      return { status: 201, body, headers: { location: body.url } };
    }),

    // -- Contents ------------------------------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/contents/{path}', 'read', (ctx) => {
      const git = state.git(ctx.repo.full_name);
      if (git.isEmpty()) throw basicError(404, 'This repository is empty.', ctx.docs);
      const ref = ctx.query.get('ref') || ctx.repo.default_branch;
      const commit = git.resolveCommit(ref);
      if (!commit) throw basicError(404, `No commit found for the ref ${ref}`, ctx.docs);
      const filePath = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '');
      if (filePath === '') {
        return { status: 200, body: git.lsTree(commit).map((e) => env.render.contentEntry(ctx.repo.full_name, ref, e, false)) };
      }
      const entry = git.lsTree(commit, { path: filePath }).find((e) => e.path === filePath);
      if (!entry) throw basicError(404, 'Not Found', ctx.docs);
      if (entry.type === 'tree') {
        const children = git.lsTree(`${commit}:${filePath}`).map((e) => ({ ...e, path: `${filePath}/${e.path}` }));
        return { status: 200, body: children.map((e) => env.render.contentEntry(ctx.repo.full_name, ref, e, false)) };
      }
      return { status: 200, body: env.render.contentEntry(ctx.repo.full_name, ref, entry, true) };
    }),
  ];
}
