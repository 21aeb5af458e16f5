// Which answerer and which web search a run uses, from flags or Action inputs and the environment.
// Keys come only from the environment and are never printed, logged or put in a trace; neither are
// credentials written into a base URL (`http://user:secret@host`). The HTTP client masks them in
// everything a provider answers (net/http-json.ts); the Action also registers them as secrets.
import path from 'node:path';
import { type Clock, scaledSleeps, systemClock } from '../net/clock.js';
import { DEFAULT_RETRY_POLICY, JsonHttpClient, ProviderError, type RetryPolicy, testWaitScale, urlCredentials } from '../net/http-json.js';
import { BraveSearch, type SearchProvider, SearxngSearch, TavilySearch } from '../web/search-provider.js';
import type { AnswerRequest, Answerer, DraftAnswer, TermProposal } from './answerer.js';
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicMessagesModel } from './model/anthropic-messages.js';
import { DEFAULT_MODEL_BUDGET, type ModelBudget, ModelAnswerer } from './model/model-answerer.js';
import { OPENAI_DEFAULT_BASE_URL, OpenAiChatModel } from './model/openai-chat.js';
import { COPILOT_CLI, COPILOT_DEFAULT_MODEL, COPILOT_TOKEN_VARIABLES, CopilotChatModel, findOnPath } from './model/copilot-chat.js';
import { OfflineAnswerer } from './offline-answerer.js';
import { ANSWERERS, type AnswererChoice, DEFAULT_CONFIG, SEARCH_PROVIDERS, type SearchChoice, type StewardConfig } from '../config/config.js';

export interface ProviderOptions {
  llm: AnswererChoice;
  llmBaseUrl?: string | undefined;
  llmModel?: string | undefined;
  /** The Copilot CLI, when not `copilot` on PATH. */
  copilotCliPath?: string | undefined;
  web: SearchChoice;
  webBaseUrl?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** What provider waits run on (back-off, time-outs); the system clock when omitted. */
  clock?: Clock;
  retry?: RetryPolicy;
  /** One deadline per question over all its provider calls (`answerer.deadline_ms`; its default when omitted). */
  deadlineMs?: number;
  budget?: ModelBudget;
  /** Whether a model answerer also proposes step B's signal terms. */
  proposeTerms?: boolean;
  /** Results kept per web search. */
  webResults?: number;
}

/** The resolved settings' `answerer:` and `search:` sections (flags and inputs already applied). */
export function providerOptions(config: StewardConfig, env: NodeJS.ProcessEnv, clock: Clock = systemClock): ProviderOptions {
  return {
    llm: config.answerer.provider,
    llmBaseUrl: config.answerer.baseUrl,
    llmModel: config.answerer.model,
    copilotCliPath: config.answerer.copilotCliPath,
    web: config.search.provider,
    webBaseUrl: config.search.baseUrl,
    env,
    clock,
    retry: { ...DEFAULT_RETRY_POLICY, retries: config.answerer.maxRetries, timeoutMs: config.answerer.timeoutMs },
    deadlineMs: config.answerer.deadlineMs,
    budget: {
      ...DEFAULT_MODEL_BUDGET,
      pages: config.answerer.budgetPages,
      inputTokens: config.answerer.maxInputTokens,
      runInputTokens: config.answerer.maxRunInputTokens,
    },
    proposeTerms: config.answerer.proposeTerms,
    webResults: config.search.maxResults,
  };
}

export interface Providers {
  answerer: Answerer;
  search: SearchProvider | undefined;
  /** Results kept per web search. */
  webResults: number;
  /** Every provider call goes through here, so the trace can report them (and one question's deadline bounds them). */
  http: JsonHttpClient;
  /** Each question's deadline over its provider calls; undefined when nothing here calls a provider. */
  deadlineMs?: number | undefined;
  /** Key values in use, for masking (the Action registers them as secrets). */
  secrets: string[];
  /** Ends what a run started (the Copilot CLI process); called once, when the run is done. */
  close(): Promise<void>;
}

export class ProviderConfigError extends Error {}

const need = (value: string | undefined, what: string): string => {
  if (!value) throw new ProviderConfigError(what);
  return value;
};

export function createProviders(options: ProviderOptions): Providers {
  if ((options.llm as string) === 'github' || (options.llm as string) === 'github-models') {
    throw new ProviderConfigError(
      "GitHub Models was retired in July 2026; use --llm copilot (GitHub Copilot, with the workflow's token), " +
        '--llm openai (any OpenAI-compatible server) or --llm anthropic',
    );
  }
  if (!ANSWERERS.includes(options.llm)) throw new ProviderConfigError(`--llm must be one of ${ANSWERERS.join(', ')}, got '${options.llm}'`);
  if (!SEARCH_PROVIDERS.includes(options.web)) throw new ProviderConfigError(`--web must be one of ${SEARCH_PROVIDERS.join(', ')}, got '${options.web}'`);
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const clock = scaledSleeps(options.clock ?? systemClock, testWaitScale(options.env));
  const http = new JsonHttpClient(retry, clock);
  const secrets: string[] = [];
  const key = (name: string) => {
    const value = options.env[name];
    if (value) {
      secrets.push(value);
      http.mask(value);
    }
    return value;
  };
  const urlSecrets = (base: string | undefined) => {
    let url: URL;
    try {
      url = new URL(base ?? '');
    } catch {
      return;
    }
    // Very short values (a user name such as `u`) would mask every such letter in the log.
    for (const secret of urlCredentials(url).secrets.filter((s) => s.length >= 4)) {
      if (!secrets.includes(secret)) secrets.push(secret);
      http.mask(secret);
    }
  };
  urlSecrets(options.llmBaseUrl);
  urlSecrets(options.webBaseUrl ?? options.env.SEARXNG_URL);
  let answerer: Answerer = new OfflineAnswerer();
  let copilot: CopilotChatModel | undefined;
  if (options.llm === 'openai') {
    const model = need(options.llmModel, '--llm openai needs --llm-model (e.g. gpt-4.1-mini, or llama3.1 on Ollama)');
    const apiKey = key('OPENAI_API_KEY');
    // Local servers (Ollama, vLLM, llama.cpp, LM Studio) need no key; api.openai.com does.
    if (!options.llmBaseUrl) need(apiKey, 'OPENAI_API_KEY is not set (or pass --llm-base-url for a server that needs no key)');
    answerer = withOfflineFallback(
      new ModelAnswerer(new OpenAiChatModel(http, options.llmBaseUrl ?? OPENAI_DEFAULT_BASE_URL, model, apiKey), options.budget ?? DEFAULT_MODEL_BUDGET),
      options.proposeTerms,
    );
  } else if (options.llm === 'anthropic') {
    const model = need(options.llmModel, '--llm anthropic needs --llm-model (e.g. claude-sonnet-4-5)');
    const apiKey = need(key('ANTHROPIC_API_KEY'), 'ANTHROPIC_API_KEY is not set');
    answerer = withOfflineFallback(
      new ModelAnswerer(
        new AnthropicMessagesModel(http, options.llmBaseUrl ?? ANTHROPIC_DEFAULT_BASE_URL, model, apiKey),
        options.budget ?? DEFAULT_MODEL_BUDGET,
      ),
      options.proposeTerms,
    );
  } else if (options.llm === 'copilot') {
    // A missing CLI or token is not an error here: the first question says so and is answered offline.
    const token = COPILOT_TOKEN_VARIABLES.map(key).find((value) => value !== undefined && value !== '');
    copilot = new CopilotChatModel({
      model: options.llmModel ?? COPILOT_DEFAULT_MODEL,
      cliPath: options.copilotCliPath ? path.resolve(options.copilotCliPath) : findOnPath(COPILOT_CLI, options.env),
      token,
      timeoutMs: retry.timeoutMs,
      calls: http,
      env: options.env,
      clock,
    });
    answerer = withOfflineFallback(new ModelAnswerer(copilot, options.budget ?? DEFAULT_MODEL_BUDGET), options.proposeTerms);
  }
  let search: SearchProvider | undefined;
  if (options.web === 'tavily')
    search = new TavilySearch(http, options.webBaseUrl ?? TavilySearch.DEFAULT_BASE_URL, need(key('TAVILY_API_KEY'), 'TAVILY_API_KEY is not set'));
  else if (options.web === 'brave')
    search = new BraveSearch(http, options.webBaseUrl ?? BraveSearch.DEFAULT_BASE_URL, need(key('BRAVE_API_KEY'), 'BRAVE_API_KEY is not set'));
  else if (options.web === 'searxng')
    search = new SearxngSearch(http, need(options.webBaseUrl ?? options.env.SEARXNG_URL, '--web searxng needs --web-base-url or SEARXNG_URL (your instance)'));
  return {
    answerer,
    search,
    webResults: options.webResults ?? 3,
    http,
    ...(options.llm !== 'offline' || search ? { deadlineMs: options.deadlineMs ?? DEFAULT_CONFIG.answerer.deadlineMs } : {}),
    secrets,
    close: async () => copilot?.close(),
  };
}

/**
 * A model answerer that, when its provider fails for good, answers offline and says so; asked to,
 * it proposes signal terms, and a failed proposal leaves the question's own terms and a note.
 */
function withOfflineFallback(primary: ModelAnswerer, proposeTerms = false): Answerer {
  const offline = new OfflineAnswerer();
  const proposer = proposeTerms
    ? {
        proposeTerms: (question: string): Promise<TermProposal> =>
          orOnFault(primary.proposeTerms(question), (fault) => ({ terms: [], notes: [`The model's proposed search terms were not used (${fault.message}).`] })),
      }
    : {};
  return {
    name: primary.name,
    ...proposer,
    answer: (request: AnswerRequest): Promise<DraftAnswer> =>
      orOnFault(primary.answer(request), async (fault) => {
        const draft = await offline.answer(request);
        return {
          ...draft,
          fault: fault.message,
          notes: [...(draft.notes ?? []), `The model provider failed (${fault.message}); this answer was made offline from the same pages.`],
        };
      }),
  };
}

/** The work's result, or, when its provider failed for good, `instead`'s; any other error stays an error. */
async function orOnFault<T>(work: Promise<T>, instead: (fault: ProviderError) => T | Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return instead(error);
  }
}
