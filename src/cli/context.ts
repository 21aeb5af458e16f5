// What every command needs: where it runs, where it writes, and the workspace it resolves.
import type { SettingsOverrides } from '../config/settings.js';
import { type Clock, systemClock } from '../net/clock.js';
import { type Workspace, openWorkspace } from '../config/workspace.js';
import { escapeCharacter } from '../wiki/layout.js';

export interface CliIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The terminal's width in characters, when stdout is a terminal. */
  columns?: number;
  /** The environment commands read (keys, GITHUB_TOKEN): the process's, or a test's own. */
  env: NodeJS.ProcessEnv;
  /** What provider waits run on. */
  clock: Clock;
  /** The CLI script an installed hook runs: the script now running (process.argv[1]) unless given. */
  cliScript?: string;
}

export const processIo = (): CliIo => ({
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  env: process.env,
  clock: systemClock,
});

/**
 * Control characters other than line feed and tab, C1 included: a page (or a model) can hold an
 * escape sequence that clears the screen, retitles the window or writes the clipboard (OSC 52).
 */
const TERMINAL_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * The same io, every line written escaped as a JSON string writes it (`\u001b`): the terminal
 * shows the bytes and obeys none of them, and JSON output stays valid JSON.
 */
export const terminalSafe = (io: CliIo): CliIo => ({
  ...io,
  stdout: (text) => io.stdout(text.replace(TERMINAL_CONTROLS, escapeCharacter)),
  stderr: (text) => io.stderr(text.replace(TERMINAL_CONTROLS, escapeCharacter)),
});

/** Exit codes: 0 success, 1 the wiki has faults (or stale indexes), 2 the command could not run. */
export const EXIT = { ok: 0, faults: 1, usage: 2 } as const;

export const openCliWorkspace = (io: CliIo, wikiFlag: string | undefined, overrides: SettingsOverrides = {}): Promise<Workspace> =>
  openWorkspace({ cwd: io.cwd, wikiFlag, overrides });
