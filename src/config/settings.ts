// Settings for one run, resolved once: a CLI flag or an Action input beats `.wiki-steward.yml`,
// which beats the defaults. This is the only place that precedence is decided; every command and
// job reads the resolved `StewardConfig` that comes out of it.
import type { AnswererChoice, CaptureMode, Refusal, Role, SearchChoice, StewardConfig } from './config.js';

/** What a flag or an Action input may set: each one the twin of a config key (undefined: not given). */
export interface SettingsOverrides {
  llm?: AnswererChoice | undefined;
  llmBaseUrl?: string | undefined;
  llmModel?: string | undefined;
  llmTerms?: boolean | undefined;
  copilotCliPath?: string | undefined;
  web?: SearchChoice | undefined;
  webBaseUrl?: string | undefined;
  triggerLabel?: string | undefined;
  command?: string | undefined;
  minPermission?: Role | undefined;
  refusal?: Refusal | undefined;
  captureMode?: CaptureMode | undefined;
  capturePullRequests?: boolean | undefined;
  inlineMax?: number | undefined;
  stewardLogins?: string[] | undefined;
}

/** The config with every given override applied. */
export function resolveSettings(config: StewardConfig, given: SettingsOverrides): StewardConfig {
  const settings = structuredClone(config);
  const set = <T>(value: T | undefined, apply: (v: T) => void) => {
    if (value !== undefined) apply(value);
  };
  set(given.llm, (v) => (settings.answerer.provider = v));
  set(given.llmBaseUrl, (v) => (settings.answerer.baseUrl = v));
  set(given.llmModel, (v) => (settings.answerer.model = v));
  set(given.llmTerms, (v) => (settings.answerer.proposeTerms = v));
  set(given.copilotCliPath, (v) => (settings.answerer.copilotCliPath = v));
  set(given.web, (v) => (settings.search.provider = v));
  set(given.webBaseUrl, (v) => (settings.search.baseUrl = v));
  set(given.triggerLabel, (v) => (settings.labels.trigger = v));
  set(given.command, (v) => (settings.ask.command = v));
  set(given.minPermission, (v) => (settings.ask.minPermission = v));
  set(given.refusal, (v) => (settings.ask.refusal = v));
  set(given.captureMode, (v) => (settings.capture.mode = v));
  set(given.capturePullRequests, (v) => (settings.capture.pullRequests = v));
  set(given.inlineMax, (v) => (settings.ladder.inlineMax = v));
  set(given.stewardLogins, (v) => (settings.ask.stewardLogins = v));
  return settings;
}
