// Hook managers own a repository's git hooks: husky (a dispatcher in core.hooksPath that runs
// `.husky/<its own file name>`), lefthook and the pre-commit framework (generated scripts that run
// what their config lists). Moving or rewriting their files breaks them, sometimes silently (husky's
// dispatcher renamed finds no script and exits 0), so with a manager the hook is not installed:
// the manager is told to run `wiki-steward hooks pre-commit` instead, by one line in its config.
import { statSync } from 'node:fs';
import path from 'node:path';

/** What a manager runs: the project's own install of the CLI, never a download at commit time. */
export const MANAGER_COMMAND = 'npx --no-install wiki-steward hooks pre-commit';

export interface HookManager {
  name: 'husky' | 'lefthook' | 'pre-commit';
  /** For messages: "husky", "lefthook", "the pre-commit framework". */
  label: string;
  /** What gave it away, for the message. */
  evidence: string;
  /** The file to add the snippet to (absolute). */
  configFile: string;
  /** How to add it: "append this line to", "add this under 'repos:' in". */
  how: string;
  /** The line or snippet, ending with a newline. */
  snippet: string;
}

export interface ManagerClues {
  repoRoot: string;
  /** The hooks folder git uses (absolute). */
  hooksDir: string;
  /** The text of the pre-commit hook git would run (or the one ours chains), when there is one. */
  existingHook?: string | undefined;
}

const LEFTHOOK_CONFIGS = [
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  'lefthook.toml',
  '.lefthook.toml',
  'lefthook.json',
  '.lefthook.json',
  '.config/lefthook.yml',
  '.config/lefthook.yaml',
];
const PRE_COMMIT_CONFIGS = ['.pre-commit-config.yaml', '.pre-commit-config.yml'];

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** A folder holding husky's dispatcher: `h` (v9) or `husky.sh` (v5–v8). */
const hasHuskyDispatcher = (dir: string): boolean => isFile(path.join(dir, 'h')) || isFile(path.join(dir, 'husky.sh'));

function husky(huskyDir: string, evidence: string): HookManager {
  return {
    name: 'husky',
    label: 'husky',
    evidence,
    configFile: path.join(huskyDir, 'pre-commit'),
    how: 'append this line to',
    snippet: `${MANAGER_COMMAND}\n`,
  };
}

function lefthook(repoRoot: string, evidence: string, configName?: string): HookManager {
  const name = configName ?? 'lefthook.yml';
  const snippet = name.endsWith('.toml')
    ? `[pre-commit.commands.wiki-steward]\nrun = "${MANAGER_COMMAND}"\n`
    : name.endsWith('.json')
      ? `${JSON.stringify({ 'pre-commit': { commands: { 'wiki-steward': { run: MANAGER_COMMAND } } } }, null, 2)}\n`
      : `pre-commit:\n  commands:\n    wiki-steward:\n      run: ${MANAGER_COMMAND}\n`;
  return { name: 'lefthook', label: 'lefthook', evidence, configFile: path.join(repoRoot, name), how: 'add this to', snippet };
}

function preCommitFramework(repoRoot: string, evidence: string, configName?: string): HookManager {
  // always_run: a commit that only deletes pages lists no staged file to the framework, and the
  // hook must still see it; pass_filenames: the hook reads the staged tree itself.
  const snippet = [
    '  - repo: local',
    '    hooks:',
    '      - id: wiki-steward',
    '        name: wiki-steward',
    `        entry: ${MANAGER_COMMAND}`,
    '        language: system',
    '        pass_filenames: false',
    '        always_run: true',
    '',
  ].join('\n');
  return {
    name: 'pre-commit',
    label: 'the pre-commit framework',
    evidence,
    configFile: path.join(repoRoot, configName ?? PRE_COMMIT_CONFIGS[0]!),
    how: "add this under 'repos:' in",
    snippet,
  };
}

/** The hook manager of this repository, if any: from the hooks folder, the hook script, then config files. */
export function detectHookManager(clues: ManagerClues): HookManager | undefined {
  const { repoRoot, hooksDir, existingHook } = clues;
  // husky points core.hooksPath at `<dir>/.husky/_` (v9) or `<dir>/.husky` (v5–v8), or at `<custom>/_`.
  // Only the part inside the repository counts: a repository kept below some `.husky` folder is no sign.
  const inRepo = isInside(hooksDir, repoRoot) ? path.relative(repoRoot, hooksDir).split(path.sep) : [];
  const huskyAt = inRepo.lastIndexOf('.husky');
  if (huskyAt >= 0) return husky(path.join(repoRoot, ...inRepo.slice(0, huskyAt + 1)), `core.hooksPath is ${inRepo.join('/')}`);
  if (path.basename(hooksDir) === '_' && hasHuskyDispatcher(hooksDir)) return husky(path.dirname(hooksDir), `husky's dispatcher is in ${hooksDir}`);

  const fromScript = existingHook === undefined ? undefined : managerOfScript(existingHook, repoRoot);
  if (fromScript) return fromScript;

  // Installed in the project but not (yet) in this clone's git config: husky's files are there.
  const dotHusky = path.join(repoRoot, '.husky');
  if (isDir(dotHusky) && (isDir(path.join(dotHusky, '_')) || isFile(path.join(dotHusky, 'pre-commit'))))
    return husky(dotHusky, 'the repository has a .husky folder');
  const lefthookConfig = LEFTHOOK_CONFIGS.find((name) => isFile(path.join(repoRoot, name)));
  if (lefthookConfig) return lefthook(repoRoot, `${lefthookConfig} is there`, lefthookConfig);
  const preCommitConfig = PRE_COMMIT_CONFIGS.find((name) => isFile(path.join(repoRoot, name)));
  if (preCommitConfig) return preCommitFramework(repoRoot, `${preCommitConfig} is there`, preCommitConfig);
  return undefined;
}

/** A manager's generated hook script, recognised by what it says. */
function managerOfScript(script: string, repoRoot: string): HookManager | undefined {
  if (/lefthook/i.test(script))
    return lefthook(
      repoRoot,
      'the pre-commit hook is lefthook’s',
      LEFTHOOK_CONFIGS.find((name) => isFile(path.join(repoRoot, name))),
    );
  if (script.includes('pre-commit.com') || script.includes('138fd403232d2ddd5efb44317e38bf03')) {
    return preCommitFramework(
      repoRoot,
      'the pre-commit hook is the pre-commit framework’s',
      PRE_COMMIT_CONFIGS.find((name) => isFile(path.join(repoRoot, name))),
    );
  }
  if (/husky/i.test(script)) {
    // husky v4 kept its scripts in .git/hooks and its commands in package.json.
    return {
      name: 'husky',
      label: 'husky',
      evidence: 'the pre-commit hook is husky’s',
      configFile: path.join(repoRoot, 'package.json'),
      how: 'add this to',
      snippet: `${JSON.stringify({ husky: { hooks: { 'pre-commit': MANAGER_COMMAND } } }, null, 2)}\n`,
    };
  }
  return undefined;
}

// True for a hook that finds its work by its own file name (`basename "$0"`, `${0##*/}`): a
// dispatcher that, renamed, would look for the wrong script.
export const dispatchesOnOwnName = (script: string): boolean => /basename\s+(--\s+)?["']?\$\{?0\b/.test(script) || script.includes('${0##*/}');

/** Whether `dir` is `root` or inside it. */
export const isInside = (dir: string, root: string): boolean => {
  const relative = path.relative(root, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};
