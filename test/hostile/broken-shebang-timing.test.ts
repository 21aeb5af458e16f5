// When does the broken-shebang CLI's ERR_STREAM_DESTROYED surface: before providers.close() (the
// Action posts its comment only after close()), or after?
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { createProviders } from '../../src/answer/providers.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { EXAMPLE_WIKI, INSTALL_QUESTION, KEYS } from '../providers/support.js';

it('no unhandled rejection at any phase of a broken-shebang Copilot run', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-attack16-shebang-'));
  const broken = path.join(dir, 'copilot');
  await writeFile(broken, '#!/no/such/interpreter\n');
  await chmod(broken, 0o755);
  let phase = 'start';
  const seen: string[] = [];
  const listener = (reason: unknown) => seen.push(`${phase}: ${(reason as Error).message}`);
  const saved = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', listener);
  try {
    const providers = createProviders({ llm: 'copilot', web: 'none', copilotCliPath: broken, env: { COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, PATH: process.env.PATH } });
    const workspace = await openWorkspace({ cwd: EXAMPLE_WIKI, wikiFlag: EXAMPLE_WIKI });
    const session = await openAskSession(workspace, providers);
    phase = 'asking';
    const trace = await askQuestion(session, INSTALL_QUESTION);
    phase = 'answered, before close (the Action posts after close)';
    await new Promise((r) => setTimeout(r, 200));
    phase = 'closing';
    await providers.close();
    phase = 'closed';
    await new Promise((r) => setTimeout(r, 500));
    expect(trace.provider_fault).toBeDefined();
  } finally {
    process.off('unhandledRejection', listener);
    for (const l of saved) process.on('unhandledRejection', l);
    await rm(dir, { recursive: true, force: true });
  }
  expect(seen).toEqual([]);
});
