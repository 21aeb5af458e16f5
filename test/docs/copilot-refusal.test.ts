// The refusal docs/models.md quotes is the one the steward prints: `ask --llm copilot` runs the real
// Copilot code path (the SDK launching the stand-in CLI, test/providers/copilot-stand-in.js), the
// stand-in refuses as the CLI does when Copilot does not authorise the token, and the note the
// offline answer carries must appear in the page word for word. Only Copilot's own words in the
// note (its error type and message, which the steward repeats in parentheses) are written as a
// placeholder in the page.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COPILOT_STAND_IN, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { EXAMPLE_WIKI, INSTALL_QUESTION, KEYS, PROJECT_ROOT, askCli } from '../providers/support.js';

const MODELS_PAGE = path.join(PROJECT_ROOT, 'docs/models.md');
/** What the page writes in place of Copilot's own words. */
const PLACEHOLDER = "(<error type>: <Copilot's message>)";
const REFUSAL = { errorType: 'authorization', message: 'Resource not accessible by integration', statusCode: 403 };

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

describe('docs/models.md quotes the note a Copilot refusal produces', () => {
  it('word for word, but for Copilot’s own words', async () => {
    const script = await scenarios.write({ steps: [{ error: REFUSAL }] });
    const { trace } = await askCli(
      INSTALL_QUESTION,
      ['--llm', 'copilot', '--copilot-cli-path', COPILOT_STAND_IN],
      {
        COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN,
        ...script.env,
      },
      EXAMPLE_WIKI,
    );
    const copilotsWords = `(${REFUSAL.errorType}: ${REFUSAL.message})`;
    const note = trace.notes.find((n) => n.includes('Copilot did not authorise this request'));
    expect(note, JSON.stringify(trace.notes)).toBeDefined();
    expect(note!.split(copilotsWords)).toHaveLength(2);
    const quoted = note!.replace(copilotsWords, PLACEHOLDER);
    expect(await readFile(MODELS_PAGE, 'utf8')).toContain(quoted);
  });
});
