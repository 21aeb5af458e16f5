// The workflow files themselves: every file in .github/workflows/ has the shape GitHub requires,
// least privilege and pinned actions; and the steward's example workflows — this repository's
// .github/workflows/wiki-steward.yml and the one the README tells people to copy — start the work
// the README's event table promises, each job with only the permissions its work needs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli.js';
import {
  type SimulatedEvent,
  type Workflow,
  allSteps,
  evaluate,
  githubContext,
  granted,
  jobsFor,
  loadWorkflow,
  parseWorkflow,
  schemaProblems,
  workflowFiles,
} from './workflow-model.js';

/**
 * The example workflow of the README's "GitHub Action" section, exactly as the README shows it.
 * The last test fails when the README's block differs from this text; change both together.
 */
export const README_EXAMPLE = `name: wiki-steward
on:
  issues:
    types: [opened, edited, labeled, reopened]
  issue_comment:
    types: [created]
  pull_request:
    types: [opened, synchronize, reopened, closed]   # closed: the reply when a capture PR merges
  push:
    branches: [main]                                 # your default branch
  schedule:
    - cron: '17 6 * * 1'                             # the weekly digest, Mondays 06:17 UTC
  workflow_dispatch:                                 # the digest on demand
permissions: {}
jobs:
  answer:
    # only comments that can be a \`/wiki ask\` (match your \`command\` input if you change it)
    if: github.event_name == 'issues' || (github.event_name == 'issue_comment' && contains(github.event.comment.body, '/wiki'))
    runs-on: ubuntu-latest
    timeout-minutes: 10      # above answerer.deadline_ms, 5 minutes per question by default
    permissions:
      contents: write        # capture commits (through the API, on capture branches only)
      issues: write          # answer comments and labels
      pull-requests: write   # capture pull requests
    concurrency:
      group: wiki-steward-answer-\${{ github.event.issue.number }}
      cancel-in-progress: \${{ github.event_name == 'issues' }}
    steps:
      - uses: actions/checkout@v5
        with:
          ref: \${{ github.event.repository.default_branch }}
      - uses: wiki-steward/wiki-steward@v0
        # with:
        #   wiki-path: wiki          # in every job; or \`wiki:\` in .wiki-steward.yml, or auto-detection
        #   llm: anthropic
        #   llm-model: claude-sonnet-4-5
        #   web: tavily
        # env:
        #   ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
        #   TAVILY_API_KEY: \${{ secrets.TAVILY_API_KEY }}
  validate:
    if: github.event_name == 'pull_request' && github.event.action != 'closed'
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0             # the base commit: only the pages the PR changes are checked
      - uses: wiki-steward/wiki-steward@v0
  capture-closed:
    if: >-
      github.event_name == 'pull_request' && github.event.action == 'closed' &&
      startsWith(github.event.pull_request.head.ref, 'wiki-steward/capture/') &&
      github.event.pull_request.head.repo.full_name == github.repository
    runs-on: ubuntu-latest
    permissions:
      contents: write        # delete the capture branch
      issues: write          # the reply on the question's issue
      pull-requests: read
    steps:
      - uses: actions/checkout@v5
        with:
          ref: \${{ github.event.repository.default_branch }}
      - uses: wiki-steward/wiki-steward@v0
  maintain:
    if: github.event_name == 'push'
    runs-on: ubuntu-latest
    permissions:
      contents: write        # index commits, rebuilt capture branches
      pull-requests: write   # the index pull request when the branch is protected
    concurrency:
      group: wiki-steward-maintain
    steps:
      - uses: actions/checkout@v5
      - uses: wiki-steward/wiki-steward@v0
  digest:
    if: github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: write          # the digest issue
      pull-requests: read    # capture pull requests
    steps:
      - uses: actions/checkout@v5
      - uses: wiki-steward/wiki-steward@v0
`;

const README = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');

/** The first fenced yaml block of the README's "## GitHub Action" section. */
function readmeExample(): string | undefined {
  const start = README.search(/^## GitHub Action\s*$/m);
  if (start < 0) return undefined;
  const rest = README.slice(start);
  const next = rest.slice(1).search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next + 1);
  return /^```ya?ml\n([\s\S]*?)^```/m.exec(section)?.[1];
}

const ACTION = /^(\.\/|wiki-steward\/wiki-steward@)/;

// Each kind of work, what it needs of the token and nothing more (the README's event table, and
// what each job calls: see src/jobs/).
const NEEDS: Record<string, Record<string, 'read' | 'write'>> = {
  answer: { contents: 'write', issues: 'write', 'pull-requests': 'write' },
  validate: { contents: 'read' },
  'capture-closed': { contents: 'write', issues: 'write', 'pull-requests': 'read' },
  maintain: { contents: 'write', 'pull-requests': 'write' },
  digest: { contents: 'read', issues: 'write', 'pull-requests': 'read' },
};

const issue = { number: 7, title: '/wiki How do hooks work?', user: { login: 'asker', type: 'User' }, labels: [] };
const pull = (ref: string, repo = 'owner/repo') => ({
  number: 12,
  merged: true,
  head: { ref, repo: { full_name: repo } },
  base: { ref: 'main', sha: 'b'.repeat(40) },
});
const repository = { default_branch: 'main', full_name: 'owner/repo' };

// The README's event → work table, as events GitHub sends.
const EVENT_TABLE: Array<{ row: string; event: SimulatedEvent; jobs: string[] }> = [
  ...['opened', 'edited', 'labeled', 'reopened'].map((action) => ({
    row: `issues ${action} → answer`,
    event: { name: 'issues', payload: { action, issue, repository, label: { name: 'question' } } },
    jobs: ['answer'],
  })),
  {
    row: 'issue_comment created, starting /wiki ask → answer',
    event: { name: 'issue_comment', payload: { action: 'created', issue, comment: { id: 99, body: '/wiki ask And pre-commit?' }, repository } },
    jobs: ['answer'],
  },
  {
    row: 'issue_comment created, an ordinary comment → nothing (and no run that would cancel an answer)',
    event: { name: 'issue_comment', payload: { action: 'created', issue, comment: { id: 100, body: 'Thanks, that helped!' }, repository } },
    jobs: [],
  },
  ...['opened', 'synchronize', 'reopened'].map((action) => ({
    row: `pull_request ${action} → validate`,
    event: { name: 'pull_request', payload: { action, pull_request: pull('feature/docs'), repository } },
    jobs: ['validate'],
  })),
  {
    row: 'pull_request closed, a capture branch → reply and delete the branch',
    event: { name: 'pull_request', payload: { action: 'closed', pull_request: pull('wiki-steward/capture/7'), repository } },
    jobs: ['capture-closed'],
  },
  {
    row: 'pull_request closed, another branch → nothing',
    event: { name: 'pull_request', payload: { action: 'closed', pull_request: pull('feature/docs'), repository } },
    jobs: [],
  },
  {
    row: "pull_request closed, a fork's branch named like a capture branch → nothing",
    event: { name: 'pull_request', payload: { action: 'closed', pull_request: pull('wiki-steward/capture/7', 'someone/fork'), repository } },
    jobs: [],
  },
  {
    row: 'push to the default branch → maintain (then validate)',
    event: { name: 'push', ref: 'refs/heads/main', payload: { ref: 'refs/heads/main', repository } },
    jobs: ['maintain'],
  },
  { row: 'schedule → digest', event: { name: 'schedule', payload: { schedule: '17 6 * * 1', repository } }, jobs: ['digest'] },
  { row: 'workflow_dispatch → digest', event: { name: 'workflow_dispatch', payload: { repository } }, jobs: ['digest'] },
];

describe('every workflow in .github/workflows', () => {
  const files = workflowFiles();

  it('there are the CI, release and steward workflows', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release.yml', 'wiki-steward.yml']));
  });

  it.each(files)('%s: each job has runs-on and steps, each step exactly one of uses and run, keys and events GitHub knows', (file) => {
    expect(schemaProblems(loadWorkflow(file))).toEqual([]);
  });

  it('the schema check finds what GitHub would reject', () => {
    const bad = parseWorkflow(
      'on: [push, pushh]\njobs:\n  a:\n    steps:\n      - run: x\n        uses: actions/checkout@v5\n  b:\n    runs-on: x\n    needs: c\n    steps: []\n    permissions: { contents: admin }\n',
      'bad.yml',
    );
    expect(schemaProblems(bad)).toEqual([
      "bad.yml: unknown event 'pushh'",
      "bad.yml: job 'a': no runs-on",
      "bad.yml: job 'a' step 1: needs exactly one of uses and run, has uses and run",
      "bad.yml: job 'b': no steps",
      "bad.yml: job 'b': needs unknown job 'c'",
      'bad.yml: job \'b\': permission contents must be none, read or write, got "admin"',
    ]);
  });

  it.each(files)('%s: every job has explicit permissions and none is write-all; the workflow grants no write by default', (file) => {
    const workflow = loadWorkflow(file);
    expect(workflow.permissions === 'write-all' || (typeof workflow.permissions === 'object' && Object.values(workflow.permissions).includes('write'))).toBe(
      false,
    );
    for (const jobId of Object.keys(workflow.jobs)) {
      expect(granted(workflow, jobId), `${file}: job ${jobId} inherits the repository's default token permissions`).toBeDefined();
      expect(workflow.jobs[jobId]!.permissions, `${file}: job ${jobId}`).not.toBe('write-all');
    }
  });

  it.each(files)('%s: every third-party action is pinned to a major version at least (or a commit)', (file) => {
    for (const { jobId, step } of allSteps(loadWorkflow(file))) {
      if (step.uses === undefined || step.uses.startsWith('./') || step.uses.startsWith('docker://')) continue;
      expect(step.uses, `${file}: job ${jobId}`).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/);
    }
  });

  it.each(files)('%s: no run script interpolates ${{ }} (values reach scripts through env, never as code)', (file) => {
    for (const { jobId, step } of allSteps(loadWorkflow(file))) if (step.run !== undefined) expect(step.run, `${file}: job ${jobId}`).not.toContain('${{');
  });
});

const examples: Array<[string, () => Workflow]> = [
  ['.github/workflows/wiki-steward.yml', () => loadWorkflow('wiki-steward.yml')],
  ["the README's example (README_EXAMPLE)", () => parseWorkflow(README_EXAMPLE, 'README_EXAMPLE')],
];

describe.each(examples)('%s', (_name, load) => {
  const workflow = load();

  it('has the shape GitHub requires', () => {
    expect(schemaProblems(workflow)).toEqual([]);
  });

  it('listens to every event of the README table, with the action types the work needs', () => {
    expect(workflow.on.issues).toEqual({ types: ['opened', 'edited', 'labeled', 'reopened'] });
    expect(workflow.on.issue_comment).toEqual({ types: ['created'] });
    // A bare `pull_request:` never fires on closed: the reply on a merged capture PR would never run.
    expect((workflow.on.pull_request as { types: string[] }).types.sort()).toEqual(['closed', 'opened', 'reopened', 'synchronize']);
    expect(workflow.on.push).toEqual({ branches: ['main'] });
    expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\S+ \S+ \* \* 1$/) }]);
    expect('workflow_dispatch' in workflow.on).toBe(true);
    expect(workflow.permissions).toEqual({});
  });

  it.each(EVENT_TABLE.map(({ row, event, jobs }) => [row, event, jobs] as const))('%s', (_row, event, jobs) => {
    expect(jobsFor(workflow, event)).toEqual(jobs);
  });

  it('has exactly one job per kind of work', () => {
    expect(Object.keys(workflow.jobs).sort()).toEqual(Object.keys(NEEDS).sort());
  });

  it.each(Object.keys(NEEDS))('%s: the permissions its work needs, and no others', (jobId) => {
    expect(granted(workflow, jobId)).toEqual(NEEDS[jobId]);
  });

  it('pull request validation can read only, and checks out the history --changed-since needs', () => {
    expect(granted(workflow, 'validate')).toEqual({ contents: 'read' });
    const checkout = workflow.jobs.validate!.steps!.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
  });

  it('answers from the default branch, one run per issue: an edit replaces the run in flight, a comment waits', () => {
    const job = workflow.jobs.answer!;
    const checkout = job.steps!.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.ref).toBe('${{ github.event.repository.default_branch }}');
    const concurrency = job.concurrency as { group: string; 'cancel-in-progress': string };
    expect(concurrency.group).toContain('${{ github.event.issue.number }}');
    const cancels = (name: string) => evaluate(concurrency['cancel-in-progress'], { github: githubContext({ name, payload: { issue } }) });
    expect(cancels('issues')).toBe(true);
    expect(cancels('issue_comment')).toBe(false);
  });

  it('every job checks out the repository, then runs the steward', () => {
    for (const [jobId, job] of Object.entries(workflow.jobs)) {
      const uses = job.steps!.map((s) => s.uses ?? '');
      expect(uses[0], jobId).toMatch(/^actions\/checkout@/);
      expect(
        uses.filter((u) => ACTION.test(u)),
        jobId,
      ).toHaveLength(1);
    }
  });
});

describe("this repository's wiki-steward.yml", () => {
  const workflow = loadWorkflow('wiki-steward.yml');

  it('runs the committed bundle (uses: ./) on examples/wiki, and says what to write instead', () => {
    for (const [jobId, job] of Object.entries(workflow.jobs)) {
      const steward = job.steps!.find((s) => ACTION.test(s.uses ?? ''));
      expect(steward?.uses, jobId).toBe('./');
      expect(steward?.with?.['wiki-path'], jobId).toBe('examples/wiki');
    }
    expect(workflow.text).toMatch(/^#.*replace every `uses: \.\/` with\s*\n?#?\s*`uses: wiki-steward\/wiki-steward@v0`/m);
  });
});

describe("the README's example workflow", () => {
  it('uses the published action at its major tag', () => {
    const workflow = parseWorkflow(README_EXAMPLE, 'README_EXAMPLE');
    for (const [jobId, job] of Object.entries(workflow.jobs)) {
      expect(
        job.steps!.filter((s) => ACTION.test(s.uses ?? '')).map((s) => s.uses),
        jobId,
      ).toEqual(['wiki-steward/wiki-steward@v0']);
    }
  });

  it('is README_EXAMPLE, word for word (the triggers and permissions asserted above)', () => {
    const block = readmeExample();
    expect(block, 'README.md has no ```yaml block under "## GitHub Action"').toBeDefined();
    expect(block, "README.md's example workflow under '## GitHub Action' differs from README_EXAMPLE in test/package/workflows.test.ts").toBe(README_EXAMPLE);
  });
});
