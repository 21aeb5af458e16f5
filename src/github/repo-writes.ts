// Every write the Action makes to the repository goes through here, so `dry-run: true` can print
// each write it would make and make none.

export interface WriteLog {
  /** `POST /repos/o/r/issues/1/comments`, and what it carries. */
  describe: string;
}

/** A write GitHub refused: what was being written, and GitHub's status and message. */
export class GitHubWriteError extends Error {
  constructor(
    readonly describe: string,
    readonly status: number | undefined,
    /** GitHub's own message. */
    readonly reason: string,
  ) {
    super(`GitHub refused to ${describe}${status ? ` (HTTP ${status})` : ''}: ${reason}`);
    this.name = 'GitHubWriteError';
  }
}

/**
 * GitHub's refusal of a token without the permission names none. The steward's only GraphQL
 * writes are to discussions, so a refused one says which permission the job lacks.
 */
function withPermissionHint(describe: string, reason: string): string {
  if (!describe.startsWith('POST /graphql') || !/Resource not accessible by integration/i.test(reason)) return reason;
  return `${reason} (give the job \`discussions: write\`: the workflow's token may not write to discussions)`;
}

export class RepoWrites {
  readonly done: WriteLog[] = [];

  constructor(
    private readonly dryRun: boolean,
    /** Where a dry run says what it would write. */
    private readonly log: (message: string) => void,
    /** Most writes this run may make (the digest's budget); unlimited when omitted. */
    private readonly budget = Infinity,
  ) {}

  /** Runs the write, or in a dry run logs it and returns `placeholder`. */
  async run<T>(describe: string, write: () => Promise<T>, placeholder: T): Promise<T> {
    if (this.done.length >= this.budget) throw new Error(`write budget of ${this.budget} for this run is spent; not going to ${describe}`);
    this.done.push({ describe });
    if (this.dryRun) {
      this.log(`[dry-run] would ${describe}`);
      return placeholder;
    }
    try {
      return await write();
    } catch (error) {
      // Say which write failed: a bare "Internal Server Error" tells a maintainer nothing.
      throw new GitHubWriteError(describe, (error as { status?: number }).status, withPermissionHint(describe, (error as Error).message));
    }
  }
}
