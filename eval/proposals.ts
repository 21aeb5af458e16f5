// Step B with a model, measured offline: the ladder takes signal terms a model proposes (the way
// across paraphrases, issue 24), and this is how the eval measures that plumbing without a model.
// A stand-in speaks the OpenAI chat protocol on a local port (test/providers/stand-ins.ts, checked
// against the provider's documented request shape) and the real client and parser
// (OpenAiChatModel, ModelAnswerer.proposeTerms) ask it for each question's terms; the pages are
// then read and answered offline, so only the terms differ from the offline run.
//
// The stand-in knows the subject as stock BM25 over the wiki does: it proposes the titles of the
// pages lunr ranks first for the question, written as a model would (no parentheses, at most the
// parser's word limit). It never sees the bank's expected pages or gold facts. Its figures say
// whether proposed terms are weighed, traced and used well; they are reported apart from the
// offline figures and never count toward a target.
import { type Answerer } from '../src/answer/answerer.js';
import { MAX_PROPOSED_WORDS, ModelAnswerer } from '../src/answer/model/model-answerer.js';
import { OpenAiChatModel } from '../src/answer/model/openai-chat.js';
import { OfflineAnswerer } from '../src/answer/offline-answerer.js';
import { offlineProviders } from '../src/answer/ask.js';
import type { Providers } from '../src/answer/providers.js';
import { JsonHttpClient } from '../src/net/http-json.js';
import { type StandIn, startStandIn, userText } from '../test/providers/stand-ins.js';
import type { Baseline } from './baseline.js';

/** Titles the stand-in proposes per question. */
const PROPOSED_TITLES = 3;
const KEY = 'sk-eval-stand-in';

/** A page title as a search term: parenthetical qualifiers dropped, only the characters names use. */
export function titleAsTerm(title: string): string | undefined {
  const term = title
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^\p{L}\p{N} .'’&/+-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return term !== '' && term.split(' ').length <= MAX_PROPOSED_WORDS && /^[\p{L}\p{N}]/u.test(term) ? term : undefined;
}

/** The question inside the proposal request's `<question>` tags. */
const askedIn = (user: string): string => /<question>\n([\s\S]*)\n<\/question>/.exec(user)?.[1] ?? user;

export interface ProposalRun {
  providers: Providers;
  /** Requests that did not fit the provider's documented shape (should stay empty). */
  problems(): string[];
  requests(): number;
  close(): Promise<void>;
}

/** Starts the stand-in for one wiki: lunr's ranking of it, and the catalog's titles by path. */
export async function startProposals(baseline: Baseline, titles: ReadonlyMap<string, string>): Promise<ProposalRun> {
  const standIn: StandIn = await startStandIn('openai', { key: KEY });
  standIn.setFallback((request) => {
    const ranked = baseline.rank(askedIn(userText(request)));
    const terms = ranked.flatMap((path) => titleAsTerm(titles.get(path) ?? '') ?? []).slice(0, PROPOSED_TITLES);
    return { reply: { terms } };
  });
  const proposer = new ModelAnswerer(new OpenAiChatModel(new JsonHttpClient(), `${standIn.url}/v1`, 'stand-in', KEY));
  const offline = new OfflineAnswerer();
  // Named for the model, as a model answerer is: the trace says "proposed by openai:stand-in".
  const answerer: Answerer = {
    name: proposer.name,
    proposeTerms: (question) => proposer.proposeTerms(question),
    answer: (request) => offline.answer(request),
  };
  return {
    providers: { ...offlineProviders(), answerer },
    problems: () => standIn.problems(),
    requests: () => standIn.requests.length,
    close: () => standIn.close(),
  };
}
