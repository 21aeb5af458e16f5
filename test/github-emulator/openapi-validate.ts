import { existsSync } from 'node:fs';
// Validates GitHub REST bodies against GitHub's published OpenAPI description, trimmed to the
// operations the emulator serves (test/fixtures/github-openapi/endpoints.json, written by
// scripts/trim-openapi.mjs). Used by the emulator's own tests, by the emulator to refuse malformed
// request bodies the way GitHub does, and by the Action's end-to-end tests:
//
//   expectValidResponse('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, body);
//   expectAllResponsesValid(emulator.requests);   // every response the emulator sent
//
// The description is OpenAPI 3.0 (`nullable: true`); schemas are converted to JSON Schema
// (draft-07) for ajv: `nullable` becomes a `null` alternative, the non-standard `int64`
// format is checked as an integer and `repo.nwo` as "owner/name".
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { GRAPHQL_ROUTE, checkGraphqlResponse } from './graphql.js';

// ajv-formats is CommonJS: its default import is module.exports, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

type JsonSchema = Record<string, unknown>;

export interface OperationSpec {
  operationId: string;
  documentationUrl: string | null;
  /** `multiSegment`: a path parameter that may contain '/' (GitHub's x-multi-segment: refs, file paths). */
  parameters: Array<{ name: string; in: string; required: boolean; schema: JsonSchema; multiSegment?: boolean }>;
  requestBody: { required: boolean; schema: JsonSchema } | null;
  /** 2xx status → body schema (null: no body, e.g. 204). */
  responses: Record<string, JsonSchema | null>;
  /** Declared 4xx/5xx status → name of its error schema under components/schemas. */
  errors: Record<string, string>;
}

export interface EndpointsFile {
  source: { package: string; file: string; openapi: string };
  operations: Record<string, OperationSpec>;
  components: { schemas: Record<string, JsonSchema> };
}

// Found from this file's folder upward, so the module also works when bundled elsewhere (the bench).
const ENDPOINTS_URL = ((): URL => {
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    for (const candidate of ['../fixtures/github-openapi/endpoints.json', 'test/fixtures/github-openapi/endpoints.json']) {
      const url = new URL(candidate, dir);
      if (existsSync(url)) return url;
    }
    if (dir.pathname === '/') return new URL('../fixtures/github-openapi/endpoints.json', import.meta.url);
  }
})();
const ROOT_ID = 'https://wiki-steward.test/github-openapi/endpoints.json';

let loaded: EndpointsFile | undefined;
/** The trimmed description (parsed once). */
export function endpoints(): EndpointsFile {
  loaded ??= JSON.parse(readFileSync(ENDPOINTS_URL, 'utf8')) as EndpointsFile;
  return loaded;
}

/** OpenAPI 3.0 schema → JSON Schema draft-07, with component $refs made absolute. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const src = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(value);
      out.$ref = m ? `${ROOT_ID}#/definitions/${m[1]}` : value;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if (key === 'enum' || key === 'required' || key === 'type' || key === 'format' || key === 'pattern') {
      out[key] = value;
    } else {
      out[key] = toJsonSchema(value);
    }
  }
  if (src.nullable !== true) return out;
  if (typeof out.type === 'string' && !('$ref' in out) && !out.oneOf && !out.anyOf && !out.allOf) {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [{ type: 'null' }, out] };
}

let ajvInstance: Ajv | undefined;
function ajv(): Ajv {
  if (ajvInstance) return ajvInstance;
  const instance = new Ajv({ strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, allErrors: true });
  addFormats(instance);
  instance.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  // GitHub's own format for "owner/name" (POST /pulls `head_repo`).
  instance.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/);
  const definitions = Object.fromEntries(Object.entries(endpoints().components.schemas).map(([name, s]) => [name, toJsonSchema(s)]));
  instance.addSchema({ $id: ROOT_ID, definitions });
  ajvInstance = instance;
  return instance;
}

const compiled = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: unknown): ValidateFunction {
  let fn = compiled.get(key);
  if (!fn) {
    fn = ajv().compile(toJsonSchema(schema) as JsonSchema);
    compiled.set(key, fn);
  }
  return fn;
}

function templateRegex(template: string, spec?: OperationSpec): RegExp {
  const multi = new Set((spec?.parameters ?? []).filter((p) => p.multiSegment).map((p) => `{${p.name}}`));
  const body = template
    .split('/')
    .map((seg) => (/^\{[^}]+\}$/.test(seg) ? (multi.has(seg) ? '.+' : '[^/]+') : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/**
 * Finds the operation for a method and a path: either the path template itself
 * ('/repos/{owner}/{repo}/issues/{issue_number}') or a concrete path ('/repos/o/r/issues/7');
 * a concrete path prefers the template with the most literal segments.
 */
export function findOperation(method: string, pathOrTemplate: string): { key: string; template: string; spec: OperationSpec } | undefined {
  const m = method.toUpperCase();
  const ops = endpoints().operations;
  const pathname = pathOrTemplate.split('?')[0] ?? pathOrTemplate;
  const direct = ops[`${m} ${pathname}`];
  if (direct) return { key: `${m} ${pathname}`, template: pathname, spec: direct };
  let best: { key: string; template: string; spec: OperationSpec; literals: number } | undefined;
  for (const [key, spec] of Object.entries(ops)) {
    const space = key.indexOf(' ');
    if (key.slice(0, space) !== m) continue;
    const template = key.slice(space + 1);
    if (!templateRegex(template, spec).test(pathname)) continue;
    const literals = template.split('/').filter((s) => s && !s.startsWith('{')).length;
    if (!best || literals > best.literals) best = { key, template, spec, literals };
  }
  return best && { key: best.key, template: best.template, spec: best.spec };
}

export interface SchemaCheck {
  valid: boolean;
  /** Human-readable problems (empty when valid). */
  problems: string[];
  errors: ErrorObject[];
  /** What the body was checked against: "GET /repos/{owner}/{repo} 200" or an error schema name. */
  checkedAgainst: string;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** Checks a response body for an operation and status, without throwing. */
export function checkResponse(method: string, pathOrTemplate: string, status: number, body: unknown): SchemaCheck {
  const op = findOperation(method, pathOrTemplate);
  if (!op) {
    return { valid: false, problems: [`no operation ${method.toUpperCase()} ${pathOrTemplate} in endpoints.json`], errors: [], checkedAgainst: 'nothing' };
  }
  const code = String(status);
  if (status >= 200 && status < 300) {
    if (!(code in op.spec.responses)) {
      return {
        valid: false,
        problems: [`status ${code} is not a documented success status of ${op.key} (documented: ${Object.keys(op.spec.responses).join(', ')})`],
        errors: [],
        checkedAgainst: op.key,
      };
    }
    const schema = op.spec.responses[code];
    if (schema === null || schema === undefined) {
      const empty = body === undefined || body === null || body === '';
      return {
        valid: empty,
        problems: empty ? [] : [`${op.key} ${code} has no body, got ${JSON.stringify(body).slice(0, 200)}`],
        errors: [],
        checkedAgainst: `${op.key} ${code}`,
      };
    }
    const fn = validatorFor(`${op.key} ${code}`, schema);
    const valid = fn(body) as boolean;
    return { valid, problems: describe(fn.errors), errors: fn.errors ?? [], checkedAgainst: `${op.key} ${code}` };
  }
  if (status >= 400) {
    // Declared error schema, else GitHub's shared ones: validation-error for 422, basic-error otherwise.
    const name = op.spec.errors[code] ?? (status === 422 ? 'validation-error' : 'basic-error');
    const fn = validatorFor(`#${name}`, { $ref: `#/components/schemas/${name}` });
    const valid = fn(body) as boolean;
    return { valid, problems: describe(fn.errors), errors: fn.errors ?? [], checkedAgainst: name };
  }
  return { valid: false, problems: [`status ${code} is not checked (only 2xx and 4xx/5xx are)`], errors: [], checkedAgainst: 'nothing' };
}

/** Throws (with the schema errors and the start of the body) unless the body matches GitHub's schema. */
export function expectValidResponse(method: string, pathTemplate: string, status: number, body: unknown): void {
  const result = checkResponse(method, pathTemplate, status, body);
  if (!result.valid) {
    const excerpt = JSON.stringify(body)?.slice(0, 600) ?? String(body);
    throw new Error(
      `response to ${method.toUpperCase()} ${pathTemplate} (${status}) does not match GitHub's OpenAPI schema (${result.checkedAgainst}):\n  ${result.problems.join('\n  ')}\nbody: ${excerpt}`,
    );
  }
}

/** The fields of a recorded emulator request that response validation needs. */
export interface RecordedExchange {
  method: string;
  path: string;
  route: string | null;
  status: number;
  responseBody: unknown;
  faulted: boolean;
  /** The request body (a GraphQL answer is checked against its query). */
  body?: unknown;
}

/** Checks an error body (4xx/5xx) that belongs to no operation (e.g. an unknown route's 404). */
export function checkErrorBody(status: number, body: unknown): SchemaCheck {
  const name = status === 422 ? 'validation-error' : 'basic-error';
  const fn = validatorFor(`#${name}`, { $ref: `#/components/schemas/${name}` });
  const valid = fn(body) as boolean;
  return { valid, problems: describe(fn.errors), errors: fn.errors ?? [], checkedAgainst: name };
}

/**
 * Validates every response in an emulator's request log that the emulator itself produced:
 * routed responses against their operation, GraphQL answers against GitHub's GraphQL schema (see
 * graphql.ts), and error answers to unknown routes against basic-error. Injected faults are skipped (their bodies are the test's own). Returns how many
 * were checked.
 */
export function expectAllResponsesValid(requests: readonly RecordedExchange[]): number {
  let checked = 0;
  for (const r of requests) {
    if (r.faulted || r.status < 200 || (r.status >= 300 && r.status < 400)) continue;
    if (r.route === GRAPHQL_ROUTE && r.status === 200) {
      const result = checkGraphqlResponse(r.body, r.responseBody);
      if (!result.valid)
        throw new Error(`GraphQL answer to ${JSON.stringify(r.body).slice(0, 200)} does not match GitHub's GraphQL schema:\n  ${result.problems.join('\n  ')}`);
    } else if (r.route === null || r.route === GRAPHQL_ROUTE) {
      const result = checkErrorBody(r.status, r.responseBody);
      if (!result.valid) {
        throw new Error(`response to ${r.method} ${r.path} (${r.status}) is not a GitHub ${result.checkedAgainst}:\n  ${result.problems.join('\n  ')}`);
      }
    } else {
      expectValidResponse(r.method, r.route, r.status, r.responseBody);
    }
    checked++;
  }
  return checked;
}

/** Compiles every response and request schema of endpoints.json (surfaces schema problems early). */
export function compileAllSchemas(): number {
  let n = 0;
  for (const [key, spec] of Object.entries(endpoints().operations)) {
    for (const [status, schema] of Object.entries(spec.responses)) {
      if (schema) {
        validatorFor(`${key} ${status}`, schema);
        n++;
      }
    }
    if (spec.requestBody) {
      validatorFor(`${key} request`, spec.requestBody.schema);
      n++;
    }
  }
  for (const name of Object.keys(endpoints().components.schemas)) {
    validatorFor(`#${name}`, { $ref: `#/components/schemas/${name}` });
    n++;
  }
  return n;
}

export interface RequestBodyCheck {
  valid: boolean;
  errors: ErrorObject[];
}

/** Checks a request body against the operation's request schema (valid when the operation has none). */
export function checkRequestBody(method: string, pathOrTemplate: string, body: unknown): RequestBodyCheck {
  const op = findOperation(method, pathOrTemplate);
  const rb = op?.spec.requestBody;
  if (!op || !rb) return { valid: true, errors: [] };
  const fn = validatorFor(`${op.key} request`, rb.schema);
  const valid = fn(body) as boolean;
  return { valid, errors: valid ? [] : (fn.errors ?? []) };
}
