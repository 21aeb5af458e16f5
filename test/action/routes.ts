// The emulated repository and the REST routes the Action tests assert writes on (route templates
// as the emulator records them).
export const REPO = 'octo-org/wiki';
export const SERVER = 'http://github.test';
export const ISSUES = '/repos/{owner}/{repo}/issues';
export const ISSUE = '/repos/{owner}/{repo}/issues/{issue_number}';
export const COMMENTS = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
export const COMMENT = '/repos/{owner}/{repo}/issues/comments/{comment_id}';
export const LABELS = '/repos/{owner}/{repo}/labels';
export const ISSUE_LABELS = '/repos/{owner}/{repo}/issues/{issue_number}/labels';
export const ISSUE_LABEL = '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}';
export const PERMISSION = '/repos/{owner}/{repo}/collaborators/{username}/permission';
export const BLOBS = '/repos/{owner}/{repo}/git/blobs';
export const TREES = '/repos/{owner}/{repo}/git/trees';
export const COMMITS = '/repos/{owner}/{repo}/git/commits';
export const REFS = '/repos/{owner}/{repo}/git/refs';
export const REF = '/repos/{owner}/{repo}/git/refs/{ref}';
export const PULLS = '/repos/{owner}/{repo}/pulls';
export const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';
export const REVIEWERS = '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers';
export const ISSUE_REACTIONS = '/repos/{owner}/{repo}/issues/{issue_number}/reactions';
export const ISSUE_REACTION = '/repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}';
export const COMMENT_REACTIONS = '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions';
export const COMMENT_REACTION = '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}';
