// Local stand-ins for the five providers, one small node:http server each (127.0.0.1, port 0).
// Each speaks its provider's documented protocol as recorded in test/fixtures/providers/*.json:
// every request is checked against the canonical fixture (method, path, headers present with the
// right values, the key, body or query fields present and well-typed) and answered with the
// provider's own error shape when it does not fit. Every request is recorded for assertions, and
// each test scripts what comes back: a success built from the fixture's documented success body
// with the model's answer (or the search results) swapped in, or a fault — a status with headers
// and the provider's error body, a truncated body, a connection that drops half-way, or a response
// (or a body half-way) HELD until the test releases it or the client goes away. Nothing here waits
// on real time: a test drives a client's time-out with its own clock, and `arrived(n)` tells it
// when the n-th request is in (and being held), `settled()` when every request has been dealt with.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type ProviderName = 'openai' | 'anthropic' | 'tavily' | 'brave' | 'searxng';
export const MODEL_PROVIDERS = ['openai', 'anthropic'] as const;
export const SEARCH_PROVIDERS = ['tavily', 'brave', 'searxng'] as const;

type TypeName = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** What a field must look like; every key is optional and all given keys must hold. */
export interface FieldSpec {
  type?: TypeName | TypeName[];
  enum?: unknown[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  /** Most whitespace-separated words (Brave: 50 in `q`). */
  maxWords?: number;
  minItems?: number;
  pattern?: string;
}

export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body… */
  body?: unknown;
  /** …or a text one (SearXNG answers some errors with an HTML page). */
  text?: string;
}

export interface Canonical {
  provider: ProviderName;
  source: string;
  request: {
    method: 'GET' | 'POST';
    path: string;
    /** The header carrying the key and its scheme prefix ("Bearer"), or null when the API takes none. */
    auth: { header: string; scheme: string } | null;
    /** Header name (lower case) → regular expression its value must match. */
    headers: Record<string, string>;
    body?: { required: Record<string, FieldSpec>; optional: Record<string, FieldSpec>; checks?: string[] };
    query?: { required: Record<string, FieldSpec>; optional: Record<string, FieldSpec> };
    example: Record<string, unknown>;
  };
  success: CannedResponse & { body: Record<string, unknown> };
  errors: Record<string, CannedResponse> & { invalid_request: CannedResponse };
}

// Beside this file under test/, or under test/ from a bundle one folder below the project root
// (scripts/run-ts.mjs bundles the eval, which starts a stand-in, into .bench/).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = [path.resolve(HERE, '../fixtures/providers'), path.resolve(HERE, '../test/fixtures/providers')].find((dir) => existsSync(dir))!;

export function loadCanonical(provider: ProviderName): Canonical {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${provider}.json`), 'utf8')) as Canonical;
}

const clone = <T>(value: T): T => structuredClone(value);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Checking a request against the canonical fixture

function typeOf(value: unknown, mode: 'json' | 'query'): TypeName[] {
  if (mode === 'query') {
    const s = String(value);
    const kinds: TypeName[] = ['string'];
    if (/^-?\d+$/.test(s)) kinds.push('integer', 'number');
    else if (/^-?\d+(\.\d+)?$/.test(s)) kinds.push('number');
    if (s === 'true' || s === 'false') kinds.push('boolean');
    return kinds;
  }
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return [typeof value as TypeName];
  return [];
}

export function checkValue(value: unknown, spec: FieldSpec, where: string, mode: 'json' | 'query' = 'json'): string[] {
  const problems: string[] = [];
  const kinds = typeOf(value, mode);
  if (spec.type) {
    const wanted = Array.isArray(spec.type) ? spec.type : [spec.type];
    if (!wanted.some((t) => kinds.includes(t))) return [`${where} must be ${wanted.join(' or ')}, got ${JSON.stringify(value)?.slice(0, 60)}`];
  }
  if (spec.enum && !spec.enum.includes(value)) problems.push(`${where} must be one of ${spec.enum.join(', ')}, got ${JSON.stringify(value)}`);
  const n = mode === 'query' ? Number(value) : value;
  if (typeof n === 'number' && (kinds.includes('number') || kinds.includes('integer'))) {
    if (spec.min !== undefined && n < spec.min) problems.push(`${where} must be at least ${spec.min}, got ${n}`);
    if (spec.max !== undefined && n > spec.max) problems.push(`${where} must be at most ${spec.max}, got ${n}`);
  }
  if (typeof value === 'string') {
    if (spec.minLength !== undefined && value.length < spec.minLength) problems.push(`${where} must have at least ${spec.minLength} characters`);
    if (spec.maxLength !== undefined && value.length > spec.maxLength)
      problems.push(`${where} must have at most ${spec.maxLength} characters, got ${value.length}`);
    if (spec.maxWords !== undefined && value.trim().split(/\s+/).length > spec.maxWords)
      problems.push(`${where} must have at most ${spec.maxWords} words, got ${value.trim().split(/\s+/).length}`);
    if (spec.pattern !== undefined && !new RegExp(spec.pattern).test(value)) problems.push(`${where} must match ${spec.pattern}`);
  }
  if (Array.isArray(value) && spec.minItems !== undefined && value.length < spec.minItems) problems.push(`${where} must have at least ${spec.minItems} items`);
  return problems;
}

/** Checks one dotted path (`messages[].role`) in `node`; `[]` means "in every element". */
function checkPath(node: unknown, segments: string[], spec: FieldSpec, required: boolean, where: string, mode: 'json' | 'query', problems: string[]): void {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  const each = segment.endsWith('[]');
  const key = each ? segment.slice(0, -2) : segment;
  const here = where ? `${where}.${key}` : key;
  if (!isObject(node)) {
    if (required) problems.push(`${where || 'body'} must be an object`);
    return;
  }
  const value = node[key];
  if (value === undefined) {
    if (required) problems.push(`${here} is required`);
    return;
  }
  if (each) {
    if (!Array.isArray(value)) {
      problems.push(`${here} must be an array`);
      return;
    }
    value.forEach((item, i) => checkPath(item, rest, spec, required, `${here}[${i}]`, mode, problems));
    return;
  }
  if (rest.length === 0) problems.push(...checkValue(value, spec, here, mode));
  else checkPath(value, rest, spec, required, here, mode, problems);
}

export function checkFields(
  data: unknown,
  fields: { required: Record<string, FieldSpec>; optional: Record<string, FieldSpec> },
  mode: 'json' | 'query',
): string[] {
  const problems: string[] = [];
  for (const [p, spec] of Object.entries(fields.required)) checkPath(data, p.split('.'), spec, true, '', mode, problems);
  for (const [p, spec] of Object.entries(fields.optional)) checkPath(data, p.split('.'), spec, false, '', mode, problems);
  return problems;
}

/** OpenAI Structured Outputs, strict mode: every object closes additionalProperties and requires every property. */
function strictSchemaProblems(schema: unknown, where: string): string[] {
  if (!isObject(schema)) return [];
  const problems: string[] = [];
  if (schema.type === 'object') {
    if (schema.additionalProperties !== false) problems.push(`${where}: additionalProperties must be false in strict mode`);
    const props = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const p of props) if (!required.includes(p)) problems.push(`${where}: '${p}' must be listed in required in strict mode`);
  }
  if (isObject(schema.properties))
    for (const [k, v] of Object.entries(schema.properties)) problems.push(...strictSchemaProblems(v, `${where}.properties.${k}`));
  if (schema.items !== undefined) problems.push(...strictSchemaProblems(schema.items, `${where}.items`));
  for (const key of ['anyOf', 'allOf'])
    if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((s, i) => problems.push(...strictSchemaProblems(s, `${where}.${key}[${i}]`)));
  for (const key of ['$defs', 'definitions'])
    if (isObject(schema[key])) for (const [k, v] of Object.entries(schema[key] as object)) problems.push(...strictSchemaProblems(v, `${where}.${key}.${k}`));
  return problems;
}

const CHECKS: Record<string, (body: Record<string, unknown>) => string[]> = {
  'openai-structured-output': (body) => {
    const format = body.response_format;
    if (!isObject(format) || format.type !== 'json_schema') return [];
    const js = format.json_schema;
    if (!isObject(js) || typeof js.name !== 'string') return ["response_format.json_schema.name is required when response_format.type is 'json_schema'"];
    if (js.strict === true) return strictSchemaProblems(js.schema, 'response_format.json_schema.schema');
    return [];
  },
  'anthropic-tool-choice': (body) => {
    const choice = body.tool_choice;
    if (!isObject(choice)) return [];
    const names = Array.isArray(body.tools) ? body.tools.map((t) => (isObject(t) ? t.name : undefined)) : [];
    if (choice.type !== 'none' && names.length === 0) return ['tool_choice may only be specified while providing tools'];
    if (choice.type === 'tool' && !names.includes(choice.name)) return [`tool_choice.name '${String(choice.name)}' is not one of the tools given`];
    return [];
  },
};

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  /** Protocol problems found against the canonical fixture; empty when the request fits. */
  problems: string[];
  /** What the stand-in answered (status), or 'dropped' (the connection closed with no whole answer). */
  answered?: number | 'dropped';
}

// ---------------------------------------------------------------------------------------------
// Scripting

export type Usage = { input: number; output: number };

export type Step =
  /** Success: the fixture's success body with the model's reply swapped in (a string is the reply text, anything else the JSON answer). */
  | { reply: unknown; usage?: Usage; refusal?: string; finishReason?: string }
  /** Success for a search stand-in: these results in the fixture's result shape (merged over its first result). */
  | { results: Array<Record<string, unknown>> }
  /** Success exactly as documented, the fixture's own example body (query echoed). */
  | { success: true }
  /** One of the fixture's documented errors, by name, with optional extra headers. */
  | { error: string; headers?: Record<string, string>; message?: string }
  /** Anything else: a status, headers and a JSON or text body. */
  | { status: number; headers?: Record<string, string>; body?: unknown; text?: string }
  /** 200 with a syntactically complete HTTP message whose JSON body is cut short. */
  | { truncated: true }
  /** Headers and half the body, then the connection drops. */
  | { dropMidBody: true }
  /** Headers and half the body, then silence (a stalled stream) until `release()` sends the rest, or the client goes away. */
  | { holdBody: true }
  /** Nothing at all until `release()` (then `then`, by default a dropped connection), or until the client goes away. */
  | { hold: true; then?: Step }
  | ((request: RecordedRequest) => Step);

export interface StandInOptions {
  /** The key the stand-in accepts; a request without it (or with another) gets the provider's 401. */
  key?: string;
  /** OpenAI-compatible local servers take no key; default true when the fixture names an auth header. */
  requireAuth?: boolean;
  /** What to answer when the script is empty; default: search stand-ins answer the fixture's results, model stand-ins 418. */
  fallback?: Step;
}

function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export class StandIn {
  readonly canonical: Canonical;
  readonly requests: RecordedRequest[] = [];
  url = '';
  private queue: Step[] = [];
  private readonly server: http.Server;
  private counter = 0;
  /** Requests held: each resolves `true` when released, `false` when its client went away. */
  private readonly held = new Set<(released: boolean) => void>();
  /** Every request being handled, so `settled()` can wait for them. */
  private readonly handling = new Set<Promise<void>>();
  private readonly arrivals: Array<{ count: number; resolve: (request: RecordedRequest) => void }> = [];

  constructor(
    readonly provider: ProviderName,
    private readonly options: StandInOptions = {},
  ) {
    this.canonical = loadCanonical(provider);
    this.server = http.createServer((req, res) => {
      const handled = this.handle(req, res).finally(() => this.handling.delete(handled));
      this.handling.add(handled);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const letGo of [...this.held]) letGo(false);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Queue what the next requests get, in order. */
  script(...steps: Step[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** What is answered once the script runs out. */
  setFallback(step: Step | undefined): this {
    if (step === undefined) delete this.options.fallback;
    else this.options.fallback = step;
    return this;
  }

  reset(): this {
    this.queue = [];
    this.requests.length = 0;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Resolves with the `count`-th request (1-based) once it has arrived and its step has begun (a held one is being held). */
  arrived(count: number): Promise<RecordedRequest> {
    const here = this.requests[count - 1];
    if (here) return Promise.resolve(here);
    return new Promise((resolve) => this.arrivals.push({ count, resolve }));
  }

  /** Lets every held request go on: a held response is answered (`then`), a held body is finished. */
  release(): void {
    for (const letGo of [...this.held]) letGo(true);
  }

  /** Resolves once every request that has arrived has been dealt with, so each one's `answered` is final. */
  async settled(): Promise<void> {
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
  }

  /** Every protocol problem of every request so far, prefixed with the request's index. */
  problems(): string[] {
    return this.requests.flatMap((r, i) => r.problems.map((p) => `#${i} ${r.method} ${r.path}: ${p}`));
  }

  /** Waits until the test releases the request (`true`) or its client goes away (`false`). */
  private hold(res: http.ServerResponse): Promise<boolean> {
    if (res.destroyed || res.socket?.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (released: boolean) => {
        this.held.delete(done);
        res.off('close', gone);
        resolve(released);
      };
      const gone = () => done(false);
      this.held.add(done);
      res.once('close', gone);
    });
  }

  private announce(recorded: RecordedRequest): void {
    const count = this.requests.indexOf(recorded) + 1;
    for (const waiter of this.arrivals.filter((w) => w.count <= count)) {
      this.arrivals.splice(this.arrivals.indexOf(waiter), 1);
      waiter.resolve(this.requests[waiter.count - 1]!);
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.on('error', () => {});
    req.on('error', () => {});
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      rawBody,
      body: undefined,
      problems: [],
    };
    this.requests.push(recorded);
    // The client hung up before anything was answered (its timeout fired).
    res.on('close', () => {
      if (recorded.answered === undefined) recorded.answered = 'dropped';
    });
    // Dispatched up to its first wait (a held request is being held), then announced.
    const dealt = this.dispatch(req, res, url, recorded);
    this.announce(recorded);
    await dealt;
  }

  private async dispatch(req: http.IncomingMessage, res: http.ServerResponse, url: URL, recorded: RecordedRequest): Promise<void> {
    const rawBody = recorded.rawBody;
    const { request } = this.canonical;
    // Auth first, as the real APIs do: a missing or wrong key is a 401 whatever else is wrong.
    const auth = request.auth;
    const requireAuth = this.options.requireAuth ?? auth !== null;
    if (auth && requireAuth) {
      const value = req.headers[auth.header];
      const presented = typeof value === 'string' ? (auth.scheme ? value.replace(new RegExp(`^${auth.scheme}\\s+`), '') : value) : undefined;
      if (presented === undefined || presented === '' || (this.options.key !== undefined && presented !== this.options.key)) {
        recorded.problems.push(presented === undefined ? `missing ${auth.header} header` : `${auth.header} does not carry the expected key`);
        return this.send(res, recorded, this.canonical.errors.unauthorized ?? { status: 401, body: {} });
      }
    }
    if (req.method !== request.method) recorded.problems.push(`method must be ${request.method}, got ${req.method}`);
    if (url.pathname !== request.path) recorded.problems.push(`path must be ${request.path}, got ${url.pathname}`);
    for (const [name, pattern] of Object.entries(request.headers)) {
      if (auth && name === auth.header && !requireAuth && req.headers[name] === undefined) continue;
      const value = req.headers[name];
      if (typeof value !== 'string') recorded.problems.push(`header ${name} is required`);
      else if (!new RegExp(pattern).test(value))
        recorded.problems.push(`header ${name} must match /${pattern}/, got '${name === auth?.header ? '<key>' : value}'`);
    }
    if (request.body) {
      try {
        recorded.body = rawBody === '' ? undefined : JSON.parse(rawBody);
      } catch {
        recorded.problems.push('the body is not JSON');
      }
      if (recorded.body !== undefined || recorded.problems.length === 0) {
        recorded.problems.push(...checkFields(recorded.body, request.body, 'json'));
        if (isObject(recorded.body)) for (const check of request.body.checks ?? []) recorded.problems.push(...CHECKS[check]!(recorded.body));
      }
    } else if (rawBody !== '') recorded.problems.push(`a ${request.method} request carries no body`);
    if (request.query) recorded.problems.push(...checkFields(recorded.query, request.query, 'query'));
    if (recorded.problems.length > 0) {
      return this.send(res, recorded, {
        ...this.canonical.errors.invalid_request,
        body: withMessage(this.provider, this.canonical.errors.invalid_request.body, recorded.problems.join('; ')),
      });
    }

    let step = this.queue.shift() ?? this.options.fallback ?? ((SEARCH_PROVIDERS as readonly string[]).includes(this.provider) ? { success: true } : undefined);
    if (step === undefined) {
      return this.send(res, recorded, {
        status: 418,
        body: withMessage(
          this.provider,
          this.canonical.errors.invalid_request.body,
          `stand-in ${this.provider}: no scripted response left for request #${this.requests.length - 1}`,
        ),
      });
    }
    while (typeof step === 'function') step = step(recorded);
    await this.answer(res, recorded, step);
  }

  private async answer(res: http.ServerResponse, recorded: RecordedRequest, step: Exclude<Step, (r: RecordedRequest) => Step>): Promise<void> {
    if ('hold' in step) {
      if (!(await this.hold(res))) {
        recorded.answered = 'dropped';
        return;
      }
      let then = step.then;
      if (then === undefined) {
        res.destroy();
        recorded.answered = 'dropped';
        return;
      }
      while (typeof then === 'function') then = then(recorded);
      return this.answer(res, recorded, then);
    }
    if ('error' in step) {
      const canned = this.canonical.errors[step.error];
      if (!canned) throw new Error(`${this.provider} fixture has no error '${step.error}'`);
      const body = step.message !== undefined && canned.body !== undefined ? withMessage(this.provider, canned.body, step.message) : canned.body;
      return this.send(res, recorded, { ...canned, ...(body !== undefined ? { body } : {}), headers: { ...canned.headers, ...step.headers } });
    }
    if ('status' in step) return this.send(res, recorded, step);
    const success = this.successBody(recorded, step);
    if ('truncated' in step) {
      const text = JSON.stringify(success);
      return this.send(res, recorded, { status: 200, headers: { 'content-type': 'application/json' }, text: text.slice(0, Math.floor(text.length / 2)) });
    }
    if ('dropMidBody' in step || 'holdBody' in step) {
      const text = JSON.stringify(success);
      const half = Math.floor(text.length / 2);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.write(text.slice(0, half));
      recorded.answered = 'dropped';
      if ('holdBody' in step && (await this.hold(res))) {
        recorded.answered = 200;
        res.end(text.slice(half));
        return;
      }
      res.destroy();
      return;
    }
    return this.send(res, recorded, { ...this.canonical.success, body: success });
  }

  private send(res: http.ServerResponse, recorded: RecordedRequest, canned: CannedResponse): void {
    recorded.answered = canned.status;
    if (res.destroyed) return;
    const text = canned.text ?? JSON.stringify(canned.body ?? {});
    res.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers, 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  /** The documented success body with this request's answer in it. */
  successBody(
    recorded: RecordedRequest,
    step:
      | { reply?: unknown; usage?: Usage; refusal?: string; finishReason?: string; results?: Array<Record<string, unknown>> }
      | { success: true }
      | { truncated: true }
      | { dropMidBody: true }
      | { holdBody: true },
  ): Record<string, unknown> {
    const body = clone(this.canonical.success.body);
    const req = (recorded.body ?? {}) as Record<string, unknown>;
    const n = ++this.counter;
    const s = step as { reply?: unknown; usage?: Usage; refusal?: string; finishReason?: string; results?: Array<Record<string, unknown>> };
    switch (this.provider) {
      case 'openai': {
        const choice = (body.choices as Array<Record<string, unknown>>)[0]!;
        const message = choice.message as Record<string, unknown>;
        body.id = `chatcmpl-standin${n}`;
        if (typeof req.model === 'string') body.model = req.model;
        if ('reply' in s) message.content = typeof s.reply === 'string' ? s.reply : JSON.stringify(s.reply);
        if (s.refusal !== undefined) {
          message.content = null;
          message.refusal = s.refusal;
        }
        if (s.finishReason) choice.finish_reason = s.finishReason;
        const usage = s.usage ?? { input: tokensOf(JSON.stringify(req.messages ?? '')), output: tokensOf(String(message.content ?? message.refusal ?? '')) };
        body.usage = { ...(body.usage as object), prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
        return body;
      }
      case 'anthropic': {
        body.id = `msg_standin${n}`;
        if (typeof req.model === 'string') body.model = req.model;
        const tool = isObject(req.tool_choice) && typeof req.tool_choice.name === 'string' ? req.tool_choice.name : 'get_weather';
        if ('reply' in s) {
          if (typeof s.reply === 'string') {
            body.content = [{ type: 'text', text: s.reply }];
            body.stop_reason = 'end_turn';
          } else {
            body.content = [{ type: 'tool_use', id: `toolu_standin${n}`, name: tool, input: s.reply }];
            body.stop_reason = 'tool_use';
          }
        }
        if (s.finishReason) body.stop_reason = s.finishReason;
        const usage = s.usage ?? {
          input: tokensOf(JSON.stringify(req.messages ?? '') + String(req.system ?? '')),
          output: tokensOf(JSON.stringify(body.content)),
        };
        body.usage = { ...(body.usage as object), input_tokens: usage.input, output_tokens: usage.output };
        return body;
      }
      case 'tavily': {
        const template = (body.results as Array<Record<string, unknown>>)[0]!;
        if (s.results) body.results = s.results.map((r) => ({ ...template, ...r }));
        if (typeof req.query === 'string') body.query = req.query;
        const max = typeof req.max_results === 'number' ? req.max_results : 5;
        body.results = (body.results as unknown[]).slice(0, max);
        return body;
      }
      case 'brave': {
        const web = body.web as { results: Array<Record<string, unknown>> };
        const template = web.results[0]!;
        if (s.results) web.results = s.results.map((r) => ({ ...template, ...r }));
        (body.query as Record<string, unknown>).original = recorded.query.q ?? '';
        web.results = web.results.slice(0, Number(recorded.query.count ?? 20));
        return body;
      }
      case 'searxng': {
        const template = (body.results as Array<Record<string, unknown>>)[0]!;
        if (s.results) body.results = s.results.map((r) => ({ ...template, ...r }));
        body.query = recorded.query.q ?? '';
        return body;
      }
    }
  }
}

/** The provider's error body with its human message replaced, wherever that provider keeps it. */
export function withMessage(provider: ProviderName, body: unknown, message: string): unknown {
  const b = clone(body) as Record<string, Record<string, unknown>>;
  switch (provider) {
    case 'openai':
    case 'anthropic':
      b.error!.message = message;
      return b;
    case 'tavily':
      b.detail!.error = message;
      return b;
    case 'brave':
      b.error!.detail = message;
      return b;
    case 'searxng':
      return { error: message };
  }
}

export async function startStandIn(provider: ProviderName, options: StandInOptions = {}): Promise<StandIn> {
  return new StandIn(provider, options).start();
}

// ---------------------------------------------------------------------------------------------
// Reading what a model stand-in was sent

/** The user turn the answerer sent (its pages and question), whatever the protocol. */
export function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  return (body.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

/** The system prompt the answerer sent. */
export function systemText(request: RecordedRequest): string {
  const body = request.body as { system?: unknown; messages?: Array<{ role: string; content: unknown }> };
  if (typeof body.system === 'string') return body.system;
  return (body.messages ?? [])
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => String(m.content))
    .join('\n');
}

export interface SentPage {
  path: string;
  /** Line number → text, as numbered in the request. */
  lines: Map<number, string>;
}

/** The `<page path="…">` blocks of a request, with their numbered lines. */
export function pagesSent(user: string): SentPage[] {
  const pages: SentPage[] = [];
  for (const m of user.matchAll(/<page path="([^"]*)">\n([\s\S]*?)\n<\/page>/g)) {
    const lines = new Map<number, string>();
    for (const line of m[2]!.split('\n')) {
      const n = /^(\d+)\| ?(.*)$/.exec(line);
      if (n) lines.set(Number(n[1]), n[2]!);
    }
    pages.push({ path: m[1]!, lines });
  }
  return pages;
}

export interface AnswerCitation {
  path: string;
  start_line: number;
  end_line: number;
  quote: string;
}
export interface ModelAnswerJson {
  claims: Array<{ text: string; citations: AnswerCitation[] }>;
  covered: boolean;
  uncovered: string[];
}

/** The first prose line of a page's body (after the front matter), cited exactly as sent. */
export function firstProseCitation(page: SentPage): AnswerCitation | undefined {
  const entries = [...page.lines];
  let start = 0;
  if (entries[0]?.[1].trim() === '---') start = entries.findIndex(([, t], i) => i > 0 && t.trim() === '---') + 1;
  let inFence = false;
  for (const [n, text] of entries.slice(start)) {
    const t = text.trim();
    if (t.startsWith('```')) inFence = !inFence;
    if (inFence || t.length < 20 || t.startsWith('#') || t.startsWith('```') || t.startsWith('|')) continue;
    return { path: page.path, start_line: n, end_line: n, quote: t };
  }
  return undefined;
}

/**
 * A well-behaved model: cites the first prose line of every page it is given (map and C calls),
 * and in a reduce call merges the partial answers it is given. `literal` copies the partials'
 * citations exactly as given (what the merge prompt asks for); otherwise each citation is put in
 * the answer schema's shape (path, start_line, end_line, quote), as a schema-constrained model would.
 */
export function readerReply(request: RecordedRequest, options: { literal?: boolean } = {}): ModelAnswerJson {
  const user = userText(request);
  const partials = [...user.matchAll(/<partial n="\d+">\n([\s\S]*?)\n<\/partial>/g)].map((m) => JSON.parse(m[1]!) as ModelAnswerJson);
  if (partials.length > 0) {
    const schemaShape = (c: Record<string, unknown>): AnswerCitation =>
      Array.isArray(c.lines)
        ? { path: String(c.path), start_line: Number(c.lines[0]), end_line: Number(c.lines[1]), quote: String(c.quote) }
        : (c as unknown as AnswerCitation);
    const claims = partials
      .flatMap((p) => p.claims)
      .map((c) => (options.literal ? c : { ...c, citations: c.citations.map((x) => schemaShape(x as unknown as Record<string, unknown>)) }));
    return { claims, covered: partials.every((p) => p.covered), uncovered: [...new Set(partials.flatMap((p) => p.uncovered))] };
  }
  const claims = pagesSent(user)
    .map(firstProseCitation)
    .filter((c): c is AnswerCitation => c !== undefined)
    .map((c) => ({ text: c.quote, citations: [c] }));
  return { claims, covered: claims.length > 0, uncovered: [] };
}

/** The well-behaved model as a script step (a fallback for any number of calls). */
export const readerStep: Step = (request) => ({ reply: readerReply(request) });
