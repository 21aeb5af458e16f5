#!/usr/bin/env node
// Trims GitHub's published OpenAPI description down to the REST operations the GitHub emulator
// (test/github-emulator/) serves, and writes test/fixtures/github-openapi/endpoints.json.
//
// The description comes from the npm package @octokit/openapi (generated from github/rest-api-description).
// That package is ~385 MB unpacked, so it is never installed: `npm pack` downloads its tarball (~29 MB)
// into a temporary directory and `tar` extracts the one file we read, `generated/api.github.com.json`
// (the non-dereferenced description; $refs are resolved here).
//
// What is kept, per operation (method + path): the operationId, the documentation URL, the parameters (name, in, required,
// schema, and `multiSegment: true` for path parameters GitHub marks `x-multi-segment`, such as a ref or a file path), the JSON request body schema, every 2xx response schema (null for an empty body such as
// 204), and for each declared 4xx/5xx response the name of its error schema. Every schema under
// components/schemas that those reference (transitively) is kept, plus `basic-error` and
// `validation-error` always. Descriptions, examples, titles and x-* vendor extensions are dropped.
//
// Usage: node scripts/trim-openapi.mjs [--version 23.x.y] [--from path/to/api.github.com.json]
//   --version defaults to the description version @octokit/openapi-types was generated from (its
//   package.json `octokit.openapi-version`), so the schemas match the TypeScript types the emulator
//   is written against; `23` when that is unavailable.
//   --from skips the download and reads a local copy of the description instead.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outFile = path.join(projectRoot, 'test/fixtures/github-openapi/endpoints.json');

/** The operations the emulator serves: [method, path template]. */
export const OPERATIONS = [
  ['GET', '/repos/{owner}/{repo}'],
  ['GET', '/repos/{owner}/{repo}/issues'],
  ['POST', '/repos/{owner}/{repo}/issues'],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['PATCH', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['GET', '/repos/{owner}/{repo}/issues/comments'],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
  ['POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
  ['DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}'],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/reactions'],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/reactions'],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}'],
  ['GET', '/repos/{owner}/{repo}/labels/{name}'],
  ['POST', '/repos/{owner}/{repo}/labels'],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}'],
  ['GET', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  // Git Data API (refs, blobs, trees, commits), backed by a real git repository per emulated repo.
  ['GET', '/repos/{owner}/{repo}/git/ref/{ref}'],
  ['GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}'],
  ['POST', '/repos/{owner}/{repo}/git/refs'],
  ['PATCH', '/repos/{owner}/{repo}/git/refs/{ref}'],
  ['DELETE', '/repos/{owner}/{repo}/git/refs/{ref}'],
  ['GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}'],
  ['POST', '/repos/{owner}/{repo}/git/blobs'],
  ['GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}'],
  ['POST', '/repos/{owner}/{repo}/git/trees'],
  ['GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}'],
  ['POST', '/repos/{owner}/{repo}/git/commits'],
  // Contents (read) and pull requests.
  ['GET', '/repos/{owner}/{repo}/contents/{path}'],
  ['GET', '/repos/{owner}/{repo}/pulls'],
  ['POST', '/repos/{owner}/{repo}/pulls'],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge'],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'],
];

const ALWAYS_KEPT_SCHEMAS = ['basic-error', 'validation-error'];

/** JSON Schema / OpenAPI 3.0 schema keywords kept; everything else (description, example, title, x-*…) goes. */
const SCHEMA_KEYWORDS = new Set([
  '$ref',
  'type',
  'format',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
]);

function defaultVersion() {
  try {
    const types = JSON.parse(readFileSync(path.join(projectRoot, 'node_modules/@octokit/openapi-types/package.json'), 'utf8'));
    const v = types.octokit?.['openapi-version'];
    if (typeof v === 'string' && v.startsWith('23.')) return v;
  } catch {
    // fall through
  }
  return '23';
}

function parseArgs(argv) {
  const args = { version: defaultVersion(), from: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--version') args.version = argv[++i];
    else if (a === '--from') args.from = argv[++i];
    else throw new Error(`unknown argument: ${a}`);
  }
  return args;
}

/** Downloads the package tarball with `npm pack` and extracts the description. */
function fetchDescription(version) {
  const dir = mkdtempSync(path.join(tmpdir(), 'octokit-openapi-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(
      execFileSync(npm, ['pack', `@octokit/openapi@${version}`, '--pack-destination', dir, '--json'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    const entry = packed[0];
    const tarball = path.join(dir, entry.filename);
    const member = 'package/generated/api.github.com.json';
    execFileSync('tar', ['-xzf', tarball, '-C', dir, member, 'package/package.json'], { stdio: 'inherit' });
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package/package.json'), 'utf8'));
    const doc = JSON.parse(readFileSync(path.join(dir, member), 'utf8'));
    return { doc, source: { package: `${pkg.name}@${pkg.version}`, file: member.replace(/^package\//, '') } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function resolveRef(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[key];
  }
  if (node === undefined) throw new Error(`unresolved $ref: ${ref}`);
  return node;
}

/** Follows non-schema $refs (components/responses, parameters, requestBodies) to their target. */
function deref(doc, node) {
  let n = node;
  for (let depth = 0; n && typeof n === 'object' && typeof n.$ref === 'string'; depth++) {
    if (depth > 20) throw new Error('$ref loop');
    n = resolveRef(doc, n.$ref);
  }
  return n;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** Returns a copy of a schema with only validation keywords, recording referenced component schemas. */
function cleanSchema(schema, refs) {
  if (Array.isArray(schema)) return schema.map((s) => cleanSchema(s, refs));
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYWORDS.has(key)) continue;
    if (key === '$ref') {
      const m = SCHEMA_REF.exec(value);
      if (!m) throw new Error(`unexpected schema $ref: ${value}`);
      refs.add(m[1]);
      out.$ref = value;
    } else if (key === 'properties') {
      out.properties = {};
      for (const [name, sub] of Object.entries(value)) out.properties[name] = cleanSchema(sub, refs);
    } else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = cleanSchema(value, refs);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = value.map((s) => cleanSchema(s, refs));
    } else {
      out[key] = value;
    }
  }
  return out;
}

function jsonSchemaOf(content) {
  if (!content) return null;
  const media = content['application/json'] ?? Object.entries(content).find(([k]) => /json/.test(k))?.[1];
  return media?.schema ?? null;
}

export function trim(doc, operations = OPERATIONS) {
  const refs = new Set(ALWAYS_KEPT_SCHEMAS);
  const ops = {};
  for (const [method, template] of operations) {
    const op = doc.paths?.[template]?.[method.toLowerCase()];
    if (!op) throw new Error(`operation not found in the description: ${method} ${template}`);
    const parameters = [...(doc.paths[template].parameters ?? []), ...(op.parameters ?? [])]
      .map((p) => deref(doc, p))
      .map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: cleanSchema(p.schema ?? {}, refs),
        ...(p['x-multi-segment'] === true ? { multiSegment: true } : {}),
      }));
    const body = op.requestBody ? deref(doc, op.requestBody) : undefined;
    const requestSchema = body ? jsonSchemaOf(body.content) : null;
    const responses = {};
    const errors = {};
    for (const [status, raw] of Object.entries(op.responses ?? {})) {
      const response = deref(doc, raw);
      const schema = jsonSchemaOf(response.content);
      if (/^2\d\d$/.test(status)) {
        responses[status] = schema ? cleanSchema(schema, refs) : null;
      } else if (/^[45]\d\d$/.test(status) && schema) {
        const m = typeof schema.$ref === 'string' ? SCHEMA_REF.exec(schema.$ref) : null;
        if (m) {
          refs.add(m[1]);
          errors[status] = m[1];
        }
      }
    }
    ops[`${method} ${template}`] = {
      operationId: op.operationId,
      documentationUrl: op.externalDocs?.url ?? null,
      parameters,
      requestBody: requestSchema ? { required: body.required === true, schema: cleanSchema(requestSchema, refs) } : null,
      responses,
      errors,
    };
  }
  // Transitive closure over component schemas.
  const schemas = {};
  const queue = [...refs];
  while (queue.length > 0) {
    const name = queue.shift();
    if (name in schemas) continue;
    const found = new Set();
    const source = doc.components?.schemas?.[name];
    if (!source) throw new Error(`component schema not found: ${name}`);
    schemas[name] = cleanSchema(source, found);
    for (const n of found) if (!(n in schemas)) queue.push(n);
  }
  const sortedSchemas = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k]]),
  );
  return { operations: ops, components: { schemas: sortedSchemas } };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { doc, source } = args.from
    ? { doc: JSON.parse(readFileSync(args.from, 'utf8')), source: { package: 'local', file: path.basename(args.from) } }
    : fetchDescription(args.version);
  const trimmed = trim(doc);
  const out = {
    $comment: "Generated by scripts/trim-openapi.mjs from GitHub's OpenAPI description; do not edit by hand.",
    source: { ...source, openapi: doc.openapi, descriptionVersion: doc.info?.version ?? null },
    ...trimmed,
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(out, null, 1)}\n`);
  const count = Object.keys(trimmed.operations).length;
  const schemaCount = Object.keys(trimmed.components.schemas).length;
  process.stdout.write(`wrote ${path.relative(projectRoot, outFile)}: ${count} operations, ${schemaCount} component schemas (${source.package})\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`trim-openapi: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
