// Action inputs: each one the twin of a CLI option or config key, each with a default that also
// applies when the runner did not fill it in (as when the bundle is started directly).
import { ANSWERERS, CAPTURE_MODES, REFUSALS, ROLES, SEARCH_PROVIDERS } from '../config/config.js';
import type { SettingsOverrides } from '../config/settings.js';
import type { Step } from './step.js';

export const MODES = ['auto', 'answer', 'validate', 'maintain', 'digest'] as const;
export type Mode = (typeof MODES)[number];

/** Inputs as given; settings undefined where empty, so the config file's value (or the default) applies. */
export interface ActionInputs {
  wikiPath: string | undefined;
  token: string;
  mode: Mode;
  /** The inputs that are twins of config keys (see config/settings.ts). */
  settings: SettingsOverrides;
  /** Capture pull requests: people asked to review, and whether they open as drafts. */
  reviewers: string[];
  draft: boolean;
  dryRun: boolean;
  /** Keep the catalog's snapshot between runs in the Actions cache (and the snapshot folder). */
  catalogCache: boolean;
}

export class InputError extends Error {}

type Read = (name: string) => string | undefined;

function choice<T extends string>(text: Read, name: string, choices: readonly T[]): T | undefined {
  const value = text(name);
  if (value !== undefined && !choices.includes(value as T)) throw new InputError(`input '${name}' must be one of ${choices.join(', ')}, got '${value}'`);
  return value as T | undefined;
}

function flag(text: Read, name: string): boolean | undefined {
  const value = text(name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['true', 'yes', '1', 'on'].includes(value)) return true;
  if (['false', 'no', '0', 'off'].includes(value)) return false;
  throw new InputError(`input '${name}' must be true or false, got '${value}'`);
}

/** A list input: logins separated by commas or white space, a leading `@` dropped; undefined when empty. */
function logins(text: Read, name: string): string[] | undefined {
  const list = (text(name) ?? '')
    .split(/[\s,]+/)
    .map((l) => l.replace(/^@/, ''))
    .filter(Boolean);
  return list.length > 0 ? list : undefined;
}

export function readInputs(step: Step): ActionInputs {
  const text: Read = (name) => step.input(name) || undefined;
  const command = text('command');
  if (command !== undefined && /\s/.test(command)) throw new InputError(`input 'command' must be one word such as /wiki, got '${command}'`);
  return {
    wikiPath: text('wiki-path'),
    token: text('github-token') ?? step.env.GITHUB_TOKEN ?? '',
    mode: choice(text, 'mode', MODES) ?? 'auto',
    settings: {
      llm: choice(text, 'llm', ANSWERERS),
      llmBaseUrl: text('llm-base-url'),
      llmModel: text('llm-model'),
      copilotCliPath: text('copilot-cli-path'),
      web: choice(text, 'web', SEARCH_PROVIDERS),
      webBaseUrl: text('web-base-url'),
      triggerLabel: text('trigger-label'),
      command,
      minPermission: choice(text, 'min-permission', ROLES),
      refusal: choice(text, 'refusal', REFUSALS),
      captureMode: choice(text, 'capture-mode', CAPTURE_MODES),
      capturePullRequests: flag(text, 'capture-pull-requests'),
      stewardLogins: logins(text, 'steward-logins'),
    },
    reviewers: logins(text, 'reviewers') ?? [],
    draft: flag(text, 'draft') ?? false,
    dryRun: flag(text, 'dry-run') ?? false,
    catalogCache: flag(text, 'catalog-cache') ?? true,
  };
}
