// Run in a child process by test/git/spawn-failure.test.ts: takes every file descriptor this
// process may still open but one, then asks git for something. Prints how the call ended; a
// process that crashed on an unhandled error prints nothing and exits non-zero.
import { openSync } from 'node:fs';
import { GitCommandManager } from '../../src/git/git-command-manager.js';

const held: number[] = [];
try {
  for (;;) held.push(openSync('/dev/null', 'r'));
} catch {
  // EMFILE: the limit is reached.
}
// One left: a process that needs three pipes cannot start.
if (held.length > 0) held.pop();
try {
  await new GitCommandManager(process.cwd()).stageContents([{ path: 'a.md', content: 'a\n' }]);
  console.log('resolved');
} catch (error) {
  console.log(`rejected: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}
