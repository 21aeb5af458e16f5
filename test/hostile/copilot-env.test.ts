// What of our environment reaches the Copilot CLI: an allow list (copilotEnvironment in
// src/answer/model/copilot-chat.ts), never a deny list. The stand-in CLI is started with a hostile
// environment, every kind of secret a workflow holds beside the variables a CLI needs to run, and
// logs the whole environment it was given: it must be exactly the allowed part plus its own token.
import { afterAll, describe, expect, it } from 'vitest';
import { copilotEnvironment } from '../../src/answer/model/copilot-chat.js';
import { COPILOT_STAND_IN as STAND_IN, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, askInProcess } from '../providers/support.js';

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

/** Secrets a workflow's environment may hold, none of them the CLI's. */
const SECRETS = {
  GITHUB_PAT: 'ghp_test-GITHUB-PAT-0a1b2c3d4e5f',
  GH_PAT: 'ghp_test-GH-PAT-6a7b8c9d0e1f',
  GH_TOKEN: 'ghs_test-GH-TOKEN-2a3b4c5d6e7f',
  GITHUB_TOKEN: 'ghs_test-GITHUB-TOKEN-8a9b0c1d2e3f',
  SEARXNG_URL: 'https://steward:hunter2@searx.example.org',
  DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/app',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX',
  NPM_CONFIG__AUTH: 'dXNlcjpwYXNz',
  NPM_CONFIG_USERCONFIG: '/home/runner/.npmrc-with-a-token',
  OPENAI_API_KEY: 'sk-test-OPENAI-env-4e5f6a7b',
  ANTHROPIC_API_KEY: 'sk-ant-test-env-8c9d0e1f',
  AWS_ACCESS_KEY_ID: 'AKIATESTTESTTEST',
  AWS_SECRET_ACCESS_KEY: 'test/secret/access/key',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-test',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/id',
  INPUT_GITHUB_TOKEN: 'ghs_test-INPUT-token-1a2b3c',
  NODE_OPTIONS: '--require /tmp/evil.cjs',
  COPILOT_API_TOKEN: 'copilot-api-token-test',
  COPILOT_SDK_AUTH_TOKEN: 'copilot-sdk-auth-test',
  COPILOT_PROVIDER_API_KEY: 'copilot-provider-key-test',
  COPILOT_ALLOW_ALL: 'true',
  GITHUB_REPOSITORY: 'octo-org/wiki',
  GITHUB_EVENT_PATH: '/home/runner/work/_temp/_github_workflow/event.json',
  SHELL: '/bin/bash',
};

describe("the Copilot CLI's environment", () => {
  it('holds exactly what a CLI needs to run, its own settings and its own token: no other secret, whatever the workflow holds', async () => {
    const script = await scenarios.write({ fallback: { reader: true } });
    const needed = {
      PATH: process.env.PATH!,
      HOME: '/home/runner',
      USER: 'runner',
      LOGNAME: 'runner',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TMPDIR: '/tmp',
      TERM: 'dumb',
      HTTPS_PROXY: 'http://proxy.internal:3128',
      https_proxy: 'http://proxy.internal:3128',
      HTTP_PROXY: 'http://proxy.internal:3128',
      http_proxy: 'http://proxy.internal:3128',
      NO_PROXY: 'localhost,127.0.0.1',
      no_proxy: 'localhost,127.0.0.1',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/corporate.pem',
      XDG_CONFIG_HOME: '/home/runner/.config',
      XDG_CACHE_HOME: '/home/runner/.cache',
      XDG_RUNTIME_DIR: '/run/user/1001',
      COPILOT_HOME: '/home/runner/.copilot-steward',
      ...script.env, // COPILOT_STAND_IN, COPILOT_STAND_IN_LOG: the stand-in's own settings
    };
    const token = 'github_pat_test-COPILOT-OWN-9f8e7d6c';
    const trace = await askInProcess(INSTALL_QUESTION, {
      llm: 'copilot',
      web: 'none',
      copilotCliPath: STAND_IN,
      env: { ...needed, ...SECRETS, COPILOT_GITHUB_TOKEN: token },
    });
    expect(trace).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
    expect(trace.provider_fault).toBeUndefined();
    const launch = (await script.log()).find((line) => line.launch)!;
    expect(launch.env).toEqual({ ...needed, COPILOT_GITHUB_TOKEN: token });
  });

  it("the workflow's token, when it is the one Copilot uses, reaches the CLI only as COPILOT_GITHUB_TOKEN", async () => {
    const script = await scenarios.write({ fallback: { reader: true } });
    const trace = await askInProcess(INSTALL_QUESTION, {
      llm: 'copilot',
      web: 'none',
      copilotCliPath: STAND_IN,
      env: { PATH: process.env.PATH, ...script.env, GITHUB_TOKEN: SECRETS.GITHUB_TOKEN, GITHUB_PAT: SECRETS.GITHUB_PAT },
    });
    expect(trace.outcome).toBe('answered');
    const launch = (await script.log()).find((line) => line.launch)!;
    expect(launch.env).toEqual({ PATH: process.env.PATH, ...script.env, COPILOT_GITHUB_TOKEN: SECRETS.GITHUB_TOKEN });
  });

  it('on Windows, the variables a program needs are passed in the case they are written, and the same secrets are not', () => {
    const windows = {
      Path: 'C:\\Windows\\system32;C:\\hostedtoolcache\\node',
      SystemRoot: 'C:\\Windows',
      windir: 'C:\\Windows',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      USERPROFILE: 'C:\\Users\\runneradmin',
      APPDATA: 'C:\\Users\\runneradmin\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\runneradmin\\AppData\\Local',
      ProgramData: 'C:\\ProgramData',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      TEMP: 'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp',
      TMP: 'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp',
      https_proxy: 'http://proxy.internal:3128',
      Copilot_Home: 'C:\\copilot',
    };
    expect(copilotEnvironment({ ...windows, ...SECRETS, Github_Pat: 'x', gh_token: 'y' }, 'own', 'win32')).toEqual({ ...windows, COPILOT_GITHUB_TOKEN: 'own' });
    // Elsewhere a name is its case: `Path` is not PATH, and none of these is passed.
    expect(copilotEnvironment(windows, 'own', 'linux')).toEqual({
      https_proxy: windows.https_proxy,
      TEMP: windows.TEMP,
      TMP: windows.TMP,
      COPILOT_GITHUB_TOKEN: 'own',
    });
  });

  it('the COPILOT_* settings passed name no secret and widen no permission', () => {
    const env = {
      COPILOT_HOME: 'a',
      COPILOT_CACHE_HOME: 'b',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_GITHUB_TOKEN: 'the environment’s, replaced',
      COPILOT_TOKEN: 'x',
      COPILOT_API_KEY: 'x',
      COPILOT_KEY: 'x',
      COPILOT_SECRET_VALUE: 'x',
      COPILOT_PASSWORD: 'x',
      COPILOT_AUTH_HEADER: 'x',
      COPILOT_CREDENTIALS: 'x',
      COPILOT_PAT: 'x',
      COPILOT_ALLOW_ALL: 'true',
      COPILOT_ALLOW_ALL_TOOLS: 'true',
    };
    expect(copilotEnvironment(env, 'own', 'linux')).toEqual({
      COPILOT_HOME: 'a',
      COPILOT_CACHE_HOME: 'b',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_GITHUB_TOKEN: 'own',
    });
  });
});
