// `npm run test:loaded`: the suite as a busy machine runs it. Two CPU-bound loops at normal
// priority start before `npm test` and are killed after it, whatever happens (a failure, Ctrl-C,
// a signal from CI), so a test that races the clock shows up here rather than on someone's laptop.
import { spawn } from 'node:child_process';

const loops = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopLoops();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

const suite = spawn('npm', ['test'], { stdio: 'inherit' });
suite.on('error', (error) => {
  console.error(`test:loaded: could not start npm test: ${error.message}`);
  process.exitCode = 1;
  stopLoops();
});
suite.on('close', (code, signal) => {
  stopLoops();
  process.exitCode = code ?? (signal ? 1 : 0);
});
