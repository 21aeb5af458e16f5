// A stateful, in-memory emulator of the slice of GitHub's REST API that wiki-steward uses, on
// node:http (127.0.0.1, a free port). Tests point GITHUB_API_URL at `url` and run the real Action
// bundle (or a real octokit) against it.
//
// - Shapes follow GitHub's OpenAPI description (types from @octokit/openapi-types; bodies are
//   checked by openapi-validate.ts against test/fixtures/github-openapi/endpoints.json, and
//   request bodies that do not match the documented request schema get GitHub's 422).
// - `POST /graphql` answers queries and the discussion mutations against GitHub's GraphQL schema
//   (graphql.ts, graphql-objects.ts, graphql-mutations.ts): Discussions are GraphQL-only, as on GitHub.
// - `state` holds repos, users, issues, comments, labels, reactions, discussions and collaborator roles; tests
//   seed it (`state.addIssue(...)`) and read it back (`state.comments`).
// - `faults` injects failures (502s, secondary and primary rate limits, permanent errors,
//   dropped connections) on matching requests.
// - `requests` records every request (method, path, route, body, status, response body) in
//   arrival order, so tests can assert which writes happened and in which order.
// - Each repository is backed by a real bare git repository (git-repo.ts) in a temporary directory:
//   the Git Data API, contents and pull requests (with real three-way merges) run git plumbing, so
//   shas are real and tests can run git against `gitDir(repo)`.
//
// This file is the entry: it only re-exports the public API from the files that hold it (the file
// map is in test/github-emulator/README.md, "Files"). Import from here.
export { FaultList } from './faults.js';
export type { ActiveFault, Fault, FaultMatch, HeldAnswer, Interleaving, MatchedRequest } from './faults.js';
export { GRAPHQL_ROUTE, checkGraphqlResponse, graphqlRootFields, isGraphqlQuery } from './graphql.js';
export type { GraphqlRootFields } from './graphql.js';
export { GraphqlFieldError } from './graphql-objects.js';
export { EMULATED_MUTATIONS } from './graphql-mutations.js';
export { HttpError, WEB_FLOW, signPayload, verifySignature } from './helpers.js';
export { EventPayloads } from './payloads.js';
export type { DiscussionCommentEvents, DiscussionEventOptions, DiscussionEvents } from './payloads.js';
export { Renderer } from './renderer.js';
export { startGitHubEmulator } from './server.js';
export type { GitHubEmulator, RecordedRequest } from './server.js';
export { DISCUSSION_NOT_ANSWERABLE, EmulatorState, REPLY_NOT_ANSWER } from './state.js';
export { PullRecord, REACTION_CONTENTS } from './types.js';
export type {
  AuthorAssociation,
  BasicError,
  Blob,
  BranchProtection,
  CollaboratorPermission,
  CommentRecord,
  CommitRecord,
  ContentDirectory,
  ContentFile,
  DiscussionCategoryRecord,
  DiscussionCommentRecord,
  DiscussionReactionRecord,
  DiscussionRecord,
  FullRepository,
  GitCommit,
  GitHubEmulatorOptions,
  GitRef,
  GitTree,
  Issue,
  IssueComment,
  IssueRecord,
  Label,
  LabelRecord,
  PullRequest,
  PullRequestSimple,
  RateLimitState,
  Reaction,
  ReactionContent,
  ReactionRecord,
  ReactionRollup,
  RepoInit,
  RepoRecord,
  Repository,
  RoleGrant,
  RoleName,
  SimpleUser,
  TokenInit,
  UserInit,
  UserRecord,
  UserType,
  ValidationError,
  WebhookDiscussion,
  WebhookDiscussionAnswer,
  WebhookDiscussionComment,
  WebhookLabel,
  WebhookRepository,
} from './types.js';
