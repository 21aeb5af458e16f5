// The GraphQL endpoint (`POST /graphql`), answered against GitHub's published GraphQL schema
// (@octokit/graphql-schema's introspection, built with graphql-js): every query is parsed and
// validated against that schema, then executed with graphql-js over the emulator's state, so an
// answer has exactly the shape the schema gives the query. Only what wiki-steward asks is modelled:
// the root fields `viewer` (the account the token belongs to: `github-actions[bot]` for
// GITHUB_TOKEN, the App's bot for an installation token, the person for a personal token),
// `rateLimit`, `repository` (with its discussions, categories and labels), `node` and `nodes`; and
// the discussion mutations of graphql-mutations.ts. The objects are built by graphql-objects.ts.
// Any other root field or mutation is answered with an error that says it is not emulated; a
// field of an emulated type that the emulator does not model is null when the schema allows it,
// else an error that names it.
//
// `checkGraphqlResponse` re-checks a recorded answer against the schema (expectAllResponsesValid
// uses it): the data is executed again as the root value of the same query, and must come back
// unchanged and without errors.
import { isDeepStrictEqual } from 'node:util';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLFieldResolver,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  type GraphQLTypeResolver,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  buildClientSchema,
  execute,
  getDirectiveValues,
  isAbstractType,
  isNonNullType,
  parse,
  validate,
} from 'graphql';
import { EMULATED_MUTATIONS, mutationRoot } from './graphql-mutations.js';
import { type GraphqlContext, GraphqlFieldError, GraphqlObjects, notFound } from './graphql-objects.js';
import type { UserRecord } from './types.js';

export const GRAPHQL_ROUTE = '/graphql';
export const GRAPHQL_DOCS = 'https://docs.github.com/graphql';
const QUERY_FIELDS = ['viewer', 'rateLimit', 'repository', 'node', 'nodes'];
const ROOT_FIELDS = new Set([...QUERY_FIELDS, '__typename']);
const MUTATION_FIELDS = new Set<string>([...EMULATED_MUTATIONS, '__typename']);

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

/** The root fields an operation selects (a fault can match them): each by name and by response key (its alias). */
export interface GraphqlRootFields {
  operation: 'query' | 'mutation' | 'subscription';
  fields: Array<{ name: string; key: string }>;
}

/** The operation and root fields of a GraphQL request body, or undefined when it has none (unparsable, no such operation). */
export function graphqlRootFields(body: unknown): GraphqlRootFields | undefined {
  const request = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof request.query !== 'string') return undefined;
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch {
    return undefined;
  }
  const operation = operationOf(document, typeof request.operationName === 'string' ? request.operationName : undefined);
  if (!operation) return undefined;
  const fields: GraphqlRootFields['fields'] = [];
  for (const selection of operation.selectionSet.selections)
    if (selection.kind === Kind.FIELD) fields.push({ name: selection.name.value, key: selection.alias?.value ?? selection.name.value });
  return { operation: operation.operation, fields };
}

/**
 * graphql-js's field resolution over the emulator's objects: a value is read from the object, a
 * function is called with the field's arguments. A field the object lacks is null when the schema
 * allows it, else an error that names it.
 */
const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
  const obj = source as Record<string, unknown> | null;
  if (obj && typeof obj === 'object' && info.fieldName in obj) {
    const value = obj[info.fieldName];
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).call(obj, args, context, info) : value;
  }
  if (isNonNullType(info.returnType)) throw new GraphqlFieldError(`github-emulator: ${info.parentType.name}.${info.fieldName} is not emulated`);
  return null;
};

/** Answers one GraphQL request body for an authenticated account. */
export async function answerGraphql(body: unknown, ctx: GraphqlContext & { now: Date }): Promise<GraphqlAnswer> {
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
  if (operation.operation === 'subscription') return errors({ message: 'github-emulator: subscriptions are not emulated' });
  const allowed = operation.operation === 'query' ? ROOT_FIELDS : MUTATION_FIELDS;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind === Kind.FIELD && !allowed.has(selection.name.value)) {
      const kind = operation.operation === 'query' ? 'Query' : 'Mutation';
      const list: readonly string[] = operation.operation === 'query' ? QUERY_FIELDS : EMULATED_MUTATIONS;
      return errors({
        message: `github-emulator: ${kind}.${selection.name.value} is not emulated (only ${list.slice(0, -1).join(', ')} and ${list[list.length - 1]} are)`,
        path: [selection.alias?.value ?? selection.name.value],
      });
    }
  }
  const objects = new GraphqlObjects(ctx);
  const node = (id: string) => objects.node(id);
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
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const repo = ctx.state.findRepo(`${owner}/${name}`);
      if (!repo || !objects.canSee(repo)) throw notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
      return objects.repository(repo);
    },
    node: ({ id }: { id: string }) => node(id),
    // A missing id is a null entry with its own NOT_FOUND error (at ['nodes', i]).
    nodes: ({ ids }: { ids: string[] }) =>
      ids.map((id) => {
        try {
          return node(id);
        } catch (error) {
          return Promise.reject(error as Error);
        }
      }),
    ...(operation.operation === 'mutation' ? mutationRoot(objects) : {}),
  };
  const variableValues = request.variables && typeof request.variables === 'object' ? (request.variables as Record<string, unknown>) : undefined;
  const result = await execute({
    schema: githubSchema,
    document,
    rootValue,
    contextValue: ctx,
    fieldResolver,
    ...(variableValues ? { variableValues } : {}),
    ...(operationName ? { operationName } : {}),
  });
  const out: { data?: Record<string, unknown> | null; errors?: GraphqlError[] } = {};
  if (result.errors)
    out.errors = result.errors.map((e) => ({
      ...(e.originalError instanceof GraphqlFieldError && e.originalError.type ? { type: e.originalError.type } : {}),
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
    const request = (requestBody ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof request.query !== 'string') return { valid: false, problems: ['data answered to a request without a query'] };
    const document = parse(request.query);
    const invalid = validate(schema, document);
    const variableValues = request.variables && typeof request.variables === 'object' ? (request.variables as Record<string, unknown>) : {};
    if (invalid.length > 0) problems.push(...invalid.map((e) => `query: ${e.message}`));
    else {
      // Each field read back by its response key, so aliases are checked as well.
      const again = execute({
        schema,
        document,
        rootValue: b.data,
        variableValues,
        ...(typeof request.operationName === 'string' ? { operationName: request.operationName } : {}),
        fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown> | null)?.[String(info.path.key)],
        typeResolver: typeFromData(schema, variableValues),
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

/**
 * For the check: the runtime type of an interface or union value in recorded data is the possible
 * type whose selection gives exactly the data's keys (with any `__typename` equal to its name).
 * Types the data cannot tell apart give the same answer, so the first of them will do.
 */
function typeFromData(schema: GraphQLSchema, variables: Record<string, unknown>): GraphQLTypeResolver<unknown, unknown> {
  return (value, _context, info, abstractType) => {
    const data = (value ?? {}) as Record<string, unknown>;
    const possible = schema.getPossibleTypes(abstractType);
    const selections = info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []);
    for (const type of possible) {
      const keys = new Map<string, boolean>();
      collectKeys(schema, type, selections, info.fragments, variables, keys);
      const dataKeys = Object.keys(data);
      if (dataKeys.length === keys.size && dataKeys.every((k) => keys.has(k) && (!keys.get(k) || data[k] === type.name))) return type.name;
    }
    return possible[0]?.name;
  };
}

/** The response keys a selection gives for one object type (true: the key is `__typename`). */
function collectKeys(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  selections: readonly SelectionNode[],
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  keys: Map<string, boolean>,
): void {
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === type.name) return true;
    const t = schema.getType(condition);
    return t !== undefined && isAbstractType(t) && schema.isSubType(t as GraphQLAbstractType, type);
  };
  for (const s of selections) {
    if (getDirectiveValues(GraphQLSkipDirective, s, variables)?.if === true) continue;
    if (getDirectiveValues(GraphQLIncludeDirective, s, variables)?.if === false) continue;
    if (s.kind === Kind.FIELD) keys.set(s.alias?.value ?? s.name.value, s.name.value === '__typename');
    else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (applies(s.typeCondition?.name.value)) collectKeys(schema, type, s.selectionSet.selections, fragments, variables, keys);
    } else {
      const fragment = fragments[s.name.value];
      if (fragment && applies(fragment.typeCondition.name.value)) collectKeys(schema, type, fragment.selectionSet.selections, fragments, variables, keys);
    }
  }
}
