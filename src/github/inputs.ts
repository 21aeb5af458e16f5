// Action inputs: each one the twin of a CLI option or config key, each with a default that also
// applies when the runner did not fill it in (as when the bundle is started directly).
import * as core from '@actions/core';
import { LLM_CHOICES, WEB_CHOICES, type LlmChoice, type WebChoice } from '../answer/providers.js';

export const MODES = ['auto', 'answer', 'validate', 'maintain', 'digest'] as const;
export const ROLES = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Mode = (typeof MODES)[number];
export type Role = (typeof ROLES)[number];

export interface ActionInputs {
  wikiPath: string | undefined;
  token: string;
  mode: Mode;
  llm: LlmChoice;
  llmBaseUrl: string | undefined;
  llmModel: string | undefined;
  web: WebChoice;
  webBaseUrl: string | undefined;
  triggerLabel: string;
  command: string;
  minPermission: Role;
  refusal: 'comment' | 'silent';
  captureMode: 'queries' | 'pending' | undefined;
  dryRun: boolean;
}

export class InputError extends Error {}

const text = (name: string): string | undefined => core.getInput(name).trim() || undefined;

function choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const value = text(name) ?? fallback;
  if (!choices.includes(value as T)) throw new InputError(`input '${name}' must be one of ${choices.join(', ')}, got '${value}'`);
  return value as T;
}

function flag(name: string, fallback: boolean): boolean {
  const value = text(name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', 'yes', '1', 'on'].includes(value)) return true;
  if (['false', 'no', '0', 'off'].includes(value)) return false;
  throw new InputError(`input '${name}' must be true or false, got '${value}'`);
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const captureMode = text('capture-mode');
  if (captureMode !== undefined && captureMode !== 'queries' && captureMode !== 'pending') {
    throw new InputError(`input 'capture-mode' must be queries or pending, got '${captureMode}'`);
  }
  const command = text('command') ?? '/wiki';
  if (/\s/.test(command)) throw new InputError(`input 'command' must be one word such as /wiki, got '${command}'`);
  return {
    wikiPath: text('wiki-path'),
    token: text('github-token') ?? env.GITHUB_TOKEN ?? '',
    mode: choice('mode', MODES, 'auto'),
    llm: choice('llm', LLM_CHOICES, 'offline'),
    llmBaseUrl: text('llm-base-url'),
    llmModel: text('llm-model'),
    web: choice('web', WEB_CHOICES, 'none'),
    webBaseUrl: text('web-base-url'),
    triggerLabel: text('trigger-label') ?? 'question',
    command,
    minPermission: choice('min-permission', ROLES, 'triage'),
    refusal: choice('refusal', ['comment', 'silent'] as const, 'comment'),
    captureMode,
    dryRun: flag('dry-run', false),
  };
}
