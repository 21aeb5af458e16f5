// The node:http server and startGitHubEmulator: authentication, rate limit, faults, request
// recording and body checks around the routes. Separate: it wires every other file together.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultList, type MatchedRequest } from './faults.js';
import { GRAPHQL_DOCS, GRAPHQL_ROUTE, answerGraphql, graphqlRootFields, isGraphqlQuery } from './graphql.js';
import { DOCS, HttpError, ROLE_RANK, basicError, lower, notFound } from './helpers.js';
import { checkRequestBody, findOperation } from './openapi-validate.js';
import { EventPayloads } from './payloads.js';
import { Renderer } from './renderer.js';
import { gitRoutes } from './routes-git.js';
import { issueRoutes } from './routes-issues.js';
import { pullRoutes } from './routes-pulls.js';
import { type Route, type RouteEnv, invalidRequestMessage } from './routing.js';
import { EmulatorState } from './state.js';
import type { GitHubEmulatorOptions, TokenInit, UserInit } from './types.js';

export interface RecordedRequest {
  /** 1-based arrival order. */
  seq: number;
  method: string;
  /** Pathname, e.g. '/repos/o/r/issues/1/comments'. */
  path: string;
  query: Record<string, string>;
  /** Matched route template, e.g. '/repos/{owner}/{repo}/issues/{issue_number}/comments' (null: no route). */
  route: string | null;
  params: Record<string, string>;
  /** Lower-cased request headers (authorization redacted to its scheme). */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when empty; the raw string when not JSON). */
  body: unknown;
  /** Login the token authenticated as (null when unauthenticated or faulted before auth). */
  actor: string | null;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
  /** True when an injected fault answered. */
  faulted: boolean;
  at: string;
}

export interface GitHubEmulator {
  /** API base URL: GITHUB_API_URL. */
  url: string;
  /** Web base URL: GITHUB_SERVER_URL. */
  serverUrl: string;
  state: EmulatorState;
  faults: FaultList;
  requests: RecordedRequest[];
  /** GitHub-shaped objects for the current state (for event payloads and assertions). */
  render: Renderer;
  /** Webhook-style event payloads built from the state, for GITHUB_EVENT_PATH. */
  events: EventPayloads;
  /**
   * The bare git repository behind a repository ('owner/name' or just 'name'; default: the first
   * repository). Run git against it, e.g. to push to a branch as a human would.
   */
  gitDir(repo?: string): string;
  /** GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_GRAPHQL_URL, GITHUB_REPOSITORY for a child process. */
  env(repo?: string): Record<string, string>;
  /** Requests that changed something (not GET/HEAD, nor a GraphQL query), optionally only the successful ones. */
  writes(opts?: { successfulOnly?: boolean }): RecordedRequest[];
  /** Stops the server and deletes the temporary git repositories. */
  close(): Promise<void>;
}

export async function startGitHubEmulator(options: GitHubEmulatorOptions = {}): Promise<GitHubEmulator> {
  const clock = options.now ?? (() => new Date());
  const serverUrl = (options.serverUrl ?? 'http://github.test').replace(/\/+$/, '');
  const bodyLimit = options.bodyLimit ?? { max: 65_536, unit: 'code-points' as const };
  const state = new EmulatorState(clock, options.rateLimit);
  for (const r of options.repos ?? [{ owner: 'octo-org', name: 'wiki' }]) state.addRepo(r);

  const defaultActorInit: UserInit = options.defaultActor ?? { login: 'github-actions[bot]', type: 'Bot' };
  const defaultActor = state.ensureUser(defaultActorInit);
  const defaultRole = options.defaultActor?.role ?? 'write';
  for (const repo of state.repos) {
    if (!repo.roles.has(lower(defaultActor.login))) repo.roles.set(lower(defaultActor.login), { role_name: defaultRole, base: defaultRole });
  }
  for (const t of Object.values(options.tokens ?? {})) state.ensureUser({ login: t.login, ...(t.type ? { type: t.type } : {}), ...(t.id ? { id: t.id } : {}) });

  const faults = new FaultList(clock);
  const requests: RecordedRequest[] = [];
  let apiUrl = '';
  let render: Renderer;
  let seq = 0;
  const env: RouteEnv = {
    state,
    bodyLimit,
    get render() {
      return render;
    },
    get apiUrl() {
      return apiUrl;
    },
  };

  // Order matters: the first route that matches answers (see /issues/comments in routes-issues.ts).
  const routes: Route[] = [...issueRoutes(env), ...gitRoutes(env), ...pullRoutes(env)];

  const tokenFor = (authorization: string | undefined): TokenInit | 'missing' | 'bad' => {
    if (!authorization) return 'missing';
    const m = /^(token|bearer)\s+(\S+)\s*$/i.exec(authorization);
    if (!m || !m[2]) return 'bad';
    if (!options.tokens) return { login: defaultActor.login, type: defaultActor.type };
    return options.tokens[m[2]] ?? 'bad';
  };

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-limit': String(state.rateLimit.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.rateLimit.remaining)),
    'x-ratelimit-reset': String(state.rateLimit.reset),
    'x-ratelimit-used': String(state.rateLimit.used),
    'x-ratelimit-resource': 'core',
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', apiUrl);
    const pathname = url.pathname.replace(/\/{2,}/g, '/');
    let parsed: unknown;
    let parseError = false;
    if (raw.length > 0) {
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = raw;
        parseError = true;
      }
    }
    let route: Route | undefined;
    let params: Record<string, string> = {};
    const graphql = method === 'POST' && pathname === GRAPHQL_ROUTE;
    for (const r of graphql ? [] : routes) {
      if (r.method !== method) continue;
      const m = r.regex.exec(pathname);
      if (!m) continue;
      route = r;
      params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
      break;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      const value = Array.isArray(v) ? v.join(', ') : v;
      headers[k] = k === 'authorization' ? `${value.split(/\s+/)[0] ?? ''} [redacted]` : value;
    }
    const record: RecordedRequest = {
      seq: ++seq,
      method,
      path: pathname,
      query: Object.fromEntries(url.searchParams),
      route: graphql ? GRAPHQL_ROUTE : (route?.template ?? null),
      params,
      headers,
      body: parsed,
      actor: null,
      status: 0,
      responseHeaders: {},
      responseBody: undefined,
      faulted: false,
      at: state.now(),
    };
    requests.push(record);

    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      const out: Record<string, string> = {
        'x-github-media-type': 'github.v3; format=json',
        'x-github-api-version-selected': '2022-11-28',
        'x-github-request-id': randomUUID().toUpperCase().replace(/-/g, ':').slice(0, 35),
        ...rateHeaders(),
        ...extra,
      };
      let payload = '';
      if (status !== 204 && body !== undefined) {
        if (typeof body === 'string') {
          payload = body;
          out['content-type'] ??= 'text/plain; charset=utf-8';
        } else {
          payload = JSON.stringify(body);
          out['content-type'] ??= 'application/json; charset=utf-8';
        }
      }
      record.status = status;
      record.responseHeaders = out;
      record.responseBody = status === 204 ? undefined : body;
      res.writeHead(status, { ...out, 'content-length': String(Buffer.byteLength(payload)) });
      res.end(payload);
    };

    // What faults, races and holds match: for GraphQL also the operation's root fields.
    const rootFields = graphql ? graphqlRootFields(parsed) : undefined;
    const matched = { method, path: pathname, route: record.route, body: parsed, query: record.query, ...(rootFields ? { graphql: rootFields } : {}) };

    // An answer computed from the state (not a fault): sent once any hold on it has settled.
    const respond = async (status: number, body: unknown, extra: Record<string, string> = {}) => {
      await faults.release({ ...matched, status });
      send(status, body, extra);
    };

    // 0. Another client's work that lands just before this request (a race, made deterministic).
    await faults.interleave(matched);

    // 1. Injected faults answer first.
    const fault = faults.take(matched);
    if (fault) {
      record.faulted = true;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.reset) {
        record.status = -1;
        req.socket.destroy();
        return;
      }
      const status = fault.status ?? 500;
      const fheaders = Object.fromEntries(Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
      const faultBody = typeof fault.body === 'function' ? (fault.body as (req: MatchedRequest) => unknown)(matched) : fault.body;
      send(status, faultBody ?? { message: http.STATUS_CODES[status] ?? 'Error', documentation_url: DOCS, status: String(status) }, fheaders);
      return;
    }

    try {
      // 2. Authentication.
      const token = tokenFor(req.headers.authorization);
      if (token === 'missing')
        throw graphql
          ? basicError(401, 'This endpoint requires you to be authenticated.', `${GRAPHQL_DOCS}/guides/forming-calls-with-graphql#authenticating-with-graphql`)
          : basicError(401, 'Requires authentication', DOCS);
      if (token === 'bad') throw basicError(401, 'Bad credentials', graphql ? GRAPHQL_DOCS : DOCS);
      const actor = state.ensureUser({ login: token.login, ...(token.type ? { type: token.type } : {}) });
      record.actor = actor.login;

      // GraphQL has its own rate limit (not the core window) and answers against GitHub's schema.
      if (graphql) {
        if (parseError) throw basicError(400, 'Problems parsing JSON', GRAPHQL_DOCS);
        const answer = await answerGraphql(parsed, { state, actor, token, serverUrl, bodyLimit, now: clock() });
        await respond(answer.status, answer.body, { 'x-ratelimit-resource': 'graphql' });
        return;
      }

      // 3. Primary rate limit (the core window).
      const nowS = Math.floor(clock().getTime() / 1000);
      if (nowS >= state.rateLimit.reset) {
        state.rateLimit.reset = nowS + state.rateLimitWindowSeconds;
        state.rateLimit.remaining = state.rateLimit.limit;
        state.rateLimit.used = 0;
      }
      if (state.rateLimit.enforce && state.rateLimit.remaining <= 0) {
        throw basicError(
          403,
          `API rate limit exceeded for ${actor.type === 'Bot' ? 'installation ID 1' : `user ID ${actor.id}`}.`,
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits',
        );
      }
      state.rateLimit.remaining = Math.max(0, state.rateLimit.remaining - 1);
      state.rateLimit.used++;

      // 4. Routing.
      if (!route) throw notFound();
      const repo = state.findRepo(`${params.owner ?? ''}/${params.repo ?? ''}`);
      if (!repo) throw notFound();
      if (repo.private && ROLE_RANK[state.roleOf(actor.login, repo.full_name).base] < ROLE_RANK.read) throw notFound();
      const op = findOperation(method, route.template);
      const docs = op?.spec.documentationUrl ?? DOCS;
      if (route.needs !== 'read') {
        const writes = (scope: 'write' | 'read' | 'none' | undefined) => (scope ?? 'write') === 'write';
        const allowed =
          route.needs === 'labels:write'
            ? writes(token.issues) || writes(token.pull_requests)
            : writes(route.needs === 'issues:write' ? token.issues : route.needs === 'contents:write' ? token.contents : token.pull_requests);
        if (!allowed) throw basicError(403, 'Resource not accessible by integration', docs);
        if (repo.archived) throw basicError(403, 'Repository was archived so is read-only.', docs);
      }

      // 5. Request body: JSON, then the documented request schema.
      if (parseError) throw basicError(400, 'Problems parsing JSON', docs);
      if (op?.spec.requestBody) {
        if (parsed === undefined) {
          if (op.spec.requestBody.required)
            throw new HttpError(422, { message: "Invalid request.\n\nFor 'links/0/schema', nil is not an object.", documentation_url: docs, status: '422' });
        } else {
          const check = checkRequestBody(method, route.template, parsed);
          if (!check.valid) {
            throw new HttpError(422, { message: invalidRequestMessage(parsed, check.errors), documentation_url: docs, status: '422' });
          }
        }
      }

      const reply = route.handler({ method, url, params, query: url.searchParams, body: parsed, actor, token, repo, route: route.template, docs });
      await respond(reply.status, reply.body, reply.headers);
    } catch (err) {
      if (err instanceof HttpError) {
        await respond(err.status, err.body, err.headers);
        return;
      }
      await respond(500, { message: `emulator error: ${err instanceof Error ? err.message : String(err)}`, documentation_url: DOCS, status: '500' });
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `emulator error: ${String(err)}` }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  apiUrl = `http://127.0.0.1:${address.port}`;
  render = new Renderer(state, apiUrl, serverUrl);
  const events = new EventPayloads(state, render);

  return {
    url: apiUrl,
    serverUrl,
    state,
    faults,
    requests,
    render,
    events,
    gitDir(repo?: string) {
      return state.gitDir(repo);
    },
    env(repo?: string) {
      return {
        GITHUB_API_URL: apiUrl,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_GRAPHQL_URL: `${apiUrl}/graphql`,
        GITHUB_REPOSITORY: state.repo(repo).full_name,
        GITHUB_REPOSITORY_OWNER: state.repo(repo).owner,
      };
    },
    writes(opts = {}) {
      return requests.filter(
        (r) =>
          r.method !== 'GET' &&
          r.method !== 'HEAD' &&
          !(r.route === GRAPHQL_ROUTE && isGraphqlQuery(r.body)) &&
          (!opts.successfulOnly || (r.status >= 200 && r.status < 300)),
      );
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => {
          state.dispose();
          resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
