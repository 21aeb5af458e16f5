// Preloaded (`node --require`) into a child process under test: it says on stderr each worker
// thread the process starts, so a test can see that a built bundle really used workers. It observes
// Node's own Worker class (the ESM named export follows through syncBuiltinESMExports).
const threads = require('node:worker_threads');
const { syncBuiltinESMExports } = require('node:module');

if (threads.isMainThread) {
  const Worker = threads.Worker;
  threads.Worker = class extends Worker {
    constructor(...args) {
      super(...args);
      process.stderr.write('count-workers: a worker thread started\n');
    }
  };
  syncBuiltinESMExports();
}
