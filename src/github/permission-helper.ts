// Who may ask: the asker's role on the repository (admin, maintain, write, triage, read) must reach
// `min-permission`. `none` opens asking to everyone.
import type { Role } from '../config/config.js';
import type { GitHubClient, RepoRef } from './octokit.js';

const RANK: Record<Role, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export async function roleOf(github: GitHubClient, repo: RepoRef, username: string): Promise<Role> {
  try {
    const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    // An organisation's custom role (`docs-editor`) is known only by the base it grants, which
    // `permission` gives (admin, write, read or none).
    for (const role of [data.role_name, data.permission]) if (role && role in RANK) return role as Role;
    return 'read';
  } catch (error) {
    // Not a collaborator: on a public repository that is read access, no more.
    if ((error as { status?: number }).status === 404) return 'read';
    throw error;
  }
}

export async function mayAsk(github: GitHubClient, repo: RepoRef, username: string, minimum: Role): Promise<{ allowed: boolean; role: Role }> {
  if (minimum === 'none') return { allowed: true, role: 'none' };
  const role = await roleOf(github, repo, username);
  return { allowed: RANK[role] >= RANK[minimum], role };
}
