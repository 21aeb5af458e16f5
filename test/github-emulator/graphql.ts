// The GraphQL endpoint (`POST /graphql`), answered against GitHub's published GraphQL schema
// (@octokit/graphql-schema's introspection, built with graphql-js): every query is parsed and
// validated against that schema, then executed with graphql-js over the emulator's state, so an
// answer has exactly the shape the schema gives the query. Only what wiki-steward asks is modelled:
// `viewer` (the account the token belongs to: `github-actions[bot]` for GITHUB_TOKEN, the App's bot
// for an installation token, the person for a personal token) and `rateLimit`. Any other root
// field, and every mutation, is answered with an error that says it is not emulated.
//
// `checkGraphqlResponse` re-checks a recorded answer against the schema (expectAllResponsesValid
// uses it): the data is executed again as the root value of the same query, and must come back
// unchanged and without errors.
import { isDeepStrictEqual } from 'node:util';
import { type DocumentNode, type GraphQLSchema, Kind, type OperationDefinitionNode, buildClientSchema, execute, parse, validate } from 'graphql';
import type { UserRecord } from './types.js';

export const GRAPHQL_ROUTE = '/graphql';
export const GRAPHQL_DOCS = 'https://docs.github.com/graphql';
const ROOT_FIELDS = new Set(['viewer', 'rateLimit', '__typename']);

let schema: GraphQLSchema | undefined;

/** GitHub's GraphQL schema, loaded (and built) once per process on the first GraphQL request. */
export async function loadGithubGraphqlSchema(): Promise<GraphQLSchema> {
  if (!schema) {
    const published = await import('@octokit/graphql-schema');
    schema = buildClientSchema(published.schema.json as Parameters<typeof buildClientSchema>[0]);
  }
  return schema;
}

export interface GraphqlError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: Array<string | number>;
  type?: string;
}

export interface GraphqlAnswer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: GraphqlError[] } | Record<string, unknown>;
}

const errors = (...list: GraphqlError[]): GraphqlAnswer => ({ status: 200, body: { errors: list } });

function operationOf(document: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

/** The account behind the token, as the schema's `User` type shows it (GitHub answers bots through `User` too). */
function viewerOf(user: UserRecord, serverUrl: string) {
  const url = `${serverUrl}/${user.type === 'Bot' ? `apps/${user.login.replace(/\[bot\]$/, '')}` : user.login}`;
  return {
    login: user.login,
    id: user.node_id,
    databaseId: user.id,
    name: user.name,
    email: user.email ?? '',
    url,
    resourcePath: new URL(url).pathname,
    avatarUrl: () => `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    isSiteAdmin: user.site_admin,
  };
}

/** Answers one GraphQL request body for an authenticated account. */
export async function answerGraphql(body: unknown, ctx: { actor: UserRecord; serverUrl: string; now: Date }): Promise<GraphqlAnswer> {
  const request = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof request.query !== 'string' || request.query.trim() === '') return errors({ message: 'A query attribute must be specified and must be a string.' });
  const githubSchema = await loadGithubGraphqlSchema();
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    const e = error as { message: string; locations?: Array<{ line: number; column: number }> };
    return errors({ message: e.message, ...(e.locations ? { locations: [...e.locations] } : {}) });
  }
  const invalid = validate(githubSchema, document);
  if (invalid.length > 0) return errors(...invalid.map((e) => ({ message: e.message, ...(e.locations ? { locations: [...e.locations] } : {}) })));
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
  const operation = operationOf(document, operationName);
  if (!operation)
    return errors({
      message: operationName ? `No operation named "${operationName}"` : 'An operation name is required when the document holds several operations.',
    });
  if (operation.operation !== 'query') return errors({ message: `github-emulator: ${operation.operation}s are not emulated` });
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind === Kind.FIELD && !ROOT_FIELDS.has(selection.name.value)) {
      return errors({
        message: `github-emulator: Query.${selection.name.value} is not emulated (only viewer and rateLimit are)`,
        path: [selection.alias?.value ?? selection.name.value],
      });
    }
  }
  const rootValue = {
    viewer: viewerOf(ctx.actor, ctx.serverUrl),
    rateLimit: () => ({
      limit: 5000,
      cost: 1,
      remaining: 4999,
      used: 1,
      nodeCount: 1,
      resetAt: new Date(ctx.now.getTime() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    }),
  };
  const variableValues = request.variables && typeof request.variables === 'object' ? (request.variables as Record<string, unknown>) : undefined;
  const result = await execute({
    schema: githubSchema,
    document,
    rootValue,
    ...(variableValues ? { variableValues } : {}),
    ...(operationName ? { operationName } : {}),
  });
  const out: { data?: Record<string, unknown> | null; errors?: GraphqlError[] } = {};
  if (result.errors)
    out.errors = result.errors.map((e) => ({
      message: e.message,
      ...(e.locations ? { locations: [...e.locations] } : {}),
      ...(e.path ? { path: [...e.path] } : {}),
    }));
  if (result.data !== undefined) out.data = result.data === null ? null : (JSON.parse(JSON.stringify(result.data)) as Record<string, unknown>);
  return { status: 200, body: out };
}

/** Whether a GraphQL request body only reads (a query, or nothing parsable): not a write. */
export function isGraphqlQuery(body: unknown): boolean {
  const query = (body as { query?: unknown } | undefined)?.query;
  if (typeof query !== 'string') return true;
  try {
    return parse(query).definitions.every((d) => d.kind !== Kind.OPERATION_DEFINITION || d.operation === 'query');
  } catch {
    return true;
  }
}

export interface GraphqlCheck {
  valid: boolean;
  problems: string[];
}

/**
 * Checks a recorded GraphQL answer: `data` must be what the schema gives the request's query (the
 * query valid against the schema, the data executed again unchanged); `errors` a list of messages.
 * Errors outside GraphQL (401) are checked by the caller as REST errors.
 */
export function checkGraphqlResponse(requestBody: unknown, responseBody: unknown): GraphqlCheck {
  const problems: string[] = [];
  const b = responseBody as { data?: unknown; errors?: unknown } | undefined;
  if (!b || typeof b !== 'object') return { valid: false, problems: ['a GraphQL answer is a JSON object'] };
  const extra = Object.keys(b).filter((k) => k !== 'data' && k !== 'errors' && k !== 'extensions');
  if (extra.length > 0) problems.push(`unexpected top-level keys: ${extra.join(', ')}`);
  if (!('data' in b) && !('errors' in b)) problems.push('neither data nor errors');
  if ('errors' in b && (!Array.isArray(b.errors) || !b.errors.every((e) => e && typeof e === 'object' && typeof (e as GraphqlError).message === 'string')))
    problems.push('errors must be a list of { message }');
  if (b.data !== undefined && b.data !== null) {
    if (!schema) return { valid: false, problems: ['the GitHub GraphQL schema was never loaded, yet there is data to check'] };
    const query = (requestBody as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string') return { valid: false, problems: ['data answered to a request without a query'] };
    const document = parse(query);
    const invalid = validate(schema, document);
    if (invalid.length > 0) problems.push(...invalid.map((e) => `query: ${e.message}`));
    else {
      // Each field read back by its response key, so aliases are checked as well.
      const again = execute({
        schema,
        document,
        rootValue: b.data,
        fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown> | null)?.[String(info.path.key)],
      });
      if ('then' in again) problems.push('the check must run synchronously');
      else {
        if (again.errors) problems.push(...again.errors.map((e) => `data: ${e.message}`));
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(again.data ?? null)), b.data))
          problems.push(`data does not have the query's shape under the schema: ${JSON.stringify(b.data).slice(0, 300)}`);
      }
    }
  }
  return { valid: problems.length === 0, problems };
}
