// What the emulator's own test files share: the closing schema check and the octokit error of a
// rejected call.
import { expect } from 'vitest';
import type { GitHubEmulator } from './emulator.js';
import { expectAllResponsesValid } from './openapi-validate.js';

/** Every response body the emulator produced in the test matches GitHub's schema; then it closes. */
export async function closeCheckingResponses(emu: GitHubEmulator): Promise<void> {
  try {
    const checked = expectAllResponsesValid(emu.requests);
    expect(checked).toBe(emu.requests.filter((r) => !r.faulted).length);
  } finally {
    await emu.close();
  }
}

export interface OctokitFailure {
  status: number;
  response?: { data: unknown; headers: Record<string, string | undefined> };
}

/** The octokit error of a rejected promise. */
export async function failure(p: Promise<unknown>): Promise<OctokitFailure> {
  try {
    await p;
  } catch (err) {
    return err as OctokitFailure;
  }
  throw new Error('expected the request to fail');
}
