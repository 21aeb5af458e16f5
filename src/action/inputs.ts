// Action inputs: each one the twin of a CLI option or config key, each with a default that also
// applies when the runner did not fill it in (as when the bundle is started directly).
import * as core from '@actions/core';
import { LLM_CHOICES, WEB_CHOICES, type LlmChoice, type WebChoice } from '../answer/providers.js';
import type { StewardConfig } from '../config/config.js';

export const MODES = ['auto', 'answer', 'validate', 'maintain', 'digest'] as const;
export const ROLES = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Mode = (typeof MODES)[number];
export type Role = (typeof ROLES)[number];

/** Inputs as given; undefined where empty, so the config file's value (or the default) applies. */
export interface ActionInputs {
  wikiPath: string | undefined;
  token: string;
  mode: Mode;
  llm: LlmChoice | undefined;
  llmBaseUrl: string | undefined;
  llmModel: string | undefined;
  web: WebChoice | undefined;
  webBaseUrl: string | undefined;
  triggerLabel: string | undefined;
  command: string | undefined;
  minPermission: Role | undefined;
  refusal: 'comment' | 'silent' | undefined;
  captureMode: 'queries' | 'pending' | undefined;
  /** Capture pull requests: people asked to review, and whether they open as drafts. */
  reviewers: string[];
  draft: boolean;
  dryRun: boolean;
}

export class InputError extends Error {}

const text = (name: string): string | undefined => core.getInput(name).trim() || undefined;

function choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
  const value = text(name);
  if (value !== undefined && !choices.includes(value as T)) throw new InputError(`input '${name}' must be one of ${choices.join(', ')}, got '${value}'`);
  return value as T | undefined;
}

function flag(name: string, fallback: boolean): boolean {
  const value = text(name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', 'yes', '1', 'on'].includes(value)) return true;
  if (['false', 'no', '0', 'off'].includes(value)) return false;
  throw new InputError(`input '${name}' must be true or false, got '${value}'`);
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const command = text('command');
  if (command !== undefined && /\s/.test(command)) throw new InputError(`input 'command' must be one word such as /wiki, got '${command}'`);
  return {
    wikiPath: text('wiki-path'),
    token: text('github-token') ?? env.GITHUB_TOKEN ?? '',
    mode: choice('mode', MODES) ?? 'auto',
    llm: choice('llm', LLM_CHOICES),
    llmBaseUrl: text('llm-base-url'),
    llmModel: text('llm-model'),
    web: choice('web', WEB_CHOICES),
    webBaseUrl: text('web-base-url'),
    triggerLabel: text('trigger-label'),
    command,
    minPermission: choice('min-permission', ROLES),
    refusal: choice('refusal', ['comment', 'silent'] as const),
    captureMode: choice('capture-mode', ['queries', 'pending'] as const),
    reviewers: (text('reviewers') ?? '').split(/[\s,]+/).map((r) => r.replace(/^@/, '')).filter(Boolean),
    draft: flag('draft', false),
    dryRun: flag('dry-run', false),
  };
}

/** What a run actually uses: each input when given, else the config file's value, else the default. */
export interface Settings {
  triggerLabel: string;
  command: string;
  minPermission: Role;
  refusal: 'comment' | 'silent';
}

export function effectiveSettings(inputs: ActionInputs, config: StewardConfig): Settings {
  return {
    triggerLabel: inputs.triggerLabel ?? config.labels.trigger,
    command: inputs.command ?? config.ask.command,
    minPermission: inputs.minPermission ?? config.ask.minPermission,
    refusal: inputs.refusal ?? config.ask.refusal,
  };
}
