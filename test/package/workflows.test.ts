// The workflow files themselves: every file in .github/workflows/ has the shape GitHub requires,
// least privilege and pinned actions; and the steward's example workflows — this repository's
// .github/workflows/wiki-steward.yml and the one the README tells people to copy — start the work
// the README's event table promises, each job with only the permissions its work needs.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
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

const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples', 'workflows');
const example = (file: string): Workflow => parseWorkflow(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'), `examples/workflows/${file}`);

const ACTION = /^(\.\/|wiki-steward\/wiki-steward@)/;

// Each kind of work, what it needs of the token and nothing more (the README's event table, and
// what each job calls: see src/jobs/).
const NEEDS: Record<string, Record<string, 'read' | 'write'>> = {
  answer: { contents: 'write', issues: 'write', 'pull-requests': 'write' },
  discussions: { contents: 'write', discussions: 'write', 'pull-requests': 'write' },
  validate: { contents: 'read' },
  'capture-closed': { contents: 'write', discussions: 'write', issues: 'write', 'pull-requests': 'read' },
  maintain: { contents: 'write', discussions: 'write', 'pull-requests': 'write' },
  digest: { contents: 'read', discussions: 'read', issues: 'write', 'pull-requests': 'read' },
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
  ...['created', 'edited', 'category_changed', 'labeled'].map((action) => ({
    row: `discussion ${action} → discussions`,
    event: { name: 'discussion', payload: { action, discussion: { number: 8, title: 'How?', category: { name: 'Q&A' } }, repository } },
    jobs: ['discussions'],
  })),
  {
    row: 'discussion_comment created, starting /wiki ask → discussions',
    event: {
      name: 'discussion_comment',
      payload: { action: 'created', discussion: { number: 8 }, comment: { id: 9, body: '/wiki ask And then?' }, repository },
    },
    jobs: ['discussions'],
  },
  {
    row: 'discussion_comment created, an ordinary comment → nothing',
    event: { name: 'discussion_comment', payload: { action: 'created', discussion: { number: 8 }, comment: { id: 10, body: 'Thanks!' }, repository } },
    jobs: [],
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
  ['examples/workflows/wiki-steward.yml', () => example('wiki-steward.yml')],
];

describe.each(examples)('%s', (_name, load) => {
  const workflow = load();

  it('has the shape GitHub requires', () => {
    expect(schemaProblems(workflow)).toEqual([]);
  });

  it('listens to every event of the README table, with the action types the work needs', () => {
    expect(workflow.on.issues).toEqual({ types: ['opened', 'edited', 'labeled', 'reopened'] });
    expect(workflow.on.issue_comment).toEqual({ types: ['created'] });
    expect(workflow.on.discussion).toEqual({ types: ['created', 'edited', 'category_changed', 'labeled'] });
    expect(workflow.on.discussion_comment).toEqual({ types: ['created'] });
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
  it('is examples/workflows/wiki-steward.yml but for `uses: ./` (the committed bundle, on the wiki .wiki-steward.yml names)', () => {
    const ours = loadWorkflow('wiki-steward.yml');
    const published = example('wiki-steward.yml');
    expect(ours.text.replaceAll('uses: ./\n', 'uses: wiki-steward/wiki-steward@v0\n')).toBe(published.text);
    for (const [jobId, job] of Object.entries(ours.jobs)) expect(job.steps!.find((s) => ACTION.test(s.uses ?? ''))?.uses, jobId).toBe('./');
    expect(readFileSync(path.join(PROJECT_ROOT, '.wiki-steward.yml'), 'utf8')).toMatch(/^wiki: examples\/wiki$/m);
  });
});

describe('the copy-paste workflows in examples/workflows/', () => {
  it.each(readdirSync(EXAMPLES_DIR))('%s uses the published action at its major tag', (file) => {
    for (const [jobId, job] of Object.entries(example(file).jobs)) {
      expect(
        job.steps!.filter((s) => ACTION.test(s.uses ?? '')).map((s) => s.uses),
        jobId,
      ).toEqual(['wiki-steward/wiki-steward@v0']);
    }
  });
});

describe('the commented-out settings of the example workflows', () => {
  /** The file with the comment lines right after a step that runs the steward uncommented, as a reader would. */
  const uncommented = (text: string): string => {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!ACTION.test(lines[i]!.replace(/^\s*- uses:\s*/, ''))) continue;
      for (let j = i + 1; j < lines.length && /^\s*#/.test(lines[j]!); j++) {
        const m = /^(\s*)# (\s*[\w-]+:.*)$/.exec(lines[j]!);
        if (m) lines[j] = `${m[1]}${m[2]}`;
      }
    }
    return lines.join('\n');
  };
  const inputs = Object.keys((yaml.load(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: object }).inputs);

  it.each(readdirSync(EXAMPLES_DIR))('%s: uncommented, they are valid YAML with real inputs', (file) => {
    const text = uncommented(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
    const workflow = parseWorkflow(text, file);
    expect(schemaProblems(workflow)).toEqual([]);
    for (const { step } of allSteps(workflow).filter(({ step }) => ACTION.test(step.uses ?? '')))
      for (const key of Object.keys(step.with ?? {})) expect(inputs).toContain(key);
  });
});

describe('examples/workflows/answer.yml, the minimal workflow', () => {
  const workflow = example('answer.yml');

  it('has the shape GitHub requires', () => {
    expect(schemaProblems(workflow)).toEqual([]);
  });

  it('answers questions and does nothing else, with only what answering needs', () => {
    expect(Object.keys(workflow.jobs)).toEqual(['answer']);
    expect(workflow.permissions).toEqual({});
    expect(granted(workflow, 'answer')).toEqual({ contents: 'read', issues: 'write' });
    const steward = workflow.jobs.answer!.steps!.find((s) => ACTION.test(s.uses ?? ''));
    expect(steward?.with).toEqual({ 'capture-pull-requests': false });
  });

  it.each(EVENT_TABLE.filter(({ event }) => event.name.startsWith('issue')).map(({ row, event, jobs }) => [row, event, jobs] as const))(
    '%s',
    (_row, event, jobs) => {
      expect(jobsFor(workflow, event)).toEqual(jobs);
    },
  );

  it('starts no run for pull requests, pushes or schedules', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['issue_comment', 'issues']);
  });
});
