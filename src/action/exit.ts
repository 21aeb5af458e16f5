// How the Action's process ends: explicitly, once its work is done and its output flushed, with the
// step's exit code. Nothing else may decide when the step ends: a handle some provider left behind
// (a CLI's timer, a pipe a process it started holds open) would otherwise keep the job running
// until the runner's time-out, after the answer was already posted.

/** A stream the step writes to, as far as ending it needs. */
export interface Flushable {
  readonly writable: boolean;
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
}

/** Resolves once everything written to `stream` before now has been handed on (or the stream is gone). */
export function flushed(stream: Flushable): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writable) return resolve();
    // Writes complete in order: the callback of an empty one runs once every earlier one has.
    stream.write('', () => resolve());
  });
}

/** Flushes the streams, then ends the process with `code`. */
export async function endProcess(
  code: number,
  streams: readonly Flushable[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (c) => process.exit(c),
): Promise<void> {
  await Promise.all(streams.map(flushed));
  exit(code);
}
