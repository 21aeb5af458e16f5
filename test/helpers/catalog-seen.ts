// What a question can see of an ask session, for tests that compare a load from the catalog's
// snapshot with a load from the pages: the catalog's entries and lookups, and the traces of a few
// questions (timings left out). Equal `seen` means a question cannot tell the two loads apart.
import { type AskSession, askQuestion } from '../../src/answer/ask.js';
import { foldedWords } from '../../src/ladder/text-match.js';

const QUESTIONS = ['How do retry budgets work?', 'cache warming with redis', 'lease renewal'];

export async function seen(session: AskSession): Promise<unknown> {
  const catalog = session.catalog!;
  const score = (q: string) => [...catalog.relevance.score(new Map(foldedWords(q).map((w) => [w, 1])))].sort((a, b) => a[0] - b[0]);
  const traces = [];
  for (const q of QUESTIONS) traces.push({ ...(await askQuestion(session, q)), timings_ms: undefined });
  return {
    entries: catalog.entries,
    acronyms: [...catalog.acronyms],
    unreadable: catalog.unreadable,
    indexFiles: catalog.indexFiles,
    schema: catalog.schema,
    scores: QUESTIONS.map(score),
    traces,
  };
}
