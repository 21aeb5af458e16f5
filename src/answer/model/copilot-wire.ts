// The Copilot CLI's side of the JSON-RPC wire, as the SDK's reader gets it. The SDK (1.0.14) reads
// the CLI's stdout with vscode-jsonrpc's reader, which buffers whatever length a `Content-Length`
// header announces (a CLI streaming a 2 GB message costs about 4 GB) and, holding half a message
// when the CLI dies, re-arms a timer every 10 s for ever: the one handle that kept a run alive. So
// the CLI's stdout goes through a gate first: it passes the reader whole messages only (it never
// holds half of one, so that timer is never armed), each at most MAX_RESPONSE_BYTES, the cap of
// every provider reply; a message announced past it, or a header that grows past it unended, stops
// the CLI at once and the rest is not read. And the moment the CLI is gone (its output ended and
// its process exited, or the gate stopped it) is a fault the call waiting on it fails with at once,
// rather than at the reply's time-out.
import type { ChildProcess } from 'node:child_process';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { MAX_RESPONSE_BYTES, ProviderError } from '../../net/http-json.js';

const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

/** What the gate found wrong with the CLI's output: only the wire can tell these apart. */
export type WireFaultKind = 'too-large' | 'no-length' | 'mid-message' | 'stopped';

export class WireFault extends ProviderError {
  constructor(
    readonly kind: WireFaultKind,
    message: string,
  ) {
    const malformed = kind === 'too-large' || kind === 'no-length';
    super('copilot', message, malformed ? 'malformed' : 'unavailable', !malformed);
    this.name = 'WireFault';
  }
}

/**
 * The CLI's stdout in, whole `Content-Length` messages out (header and body, one chunk each), each
 * at most `limit` bytes of body and `limit` bytes of header. A breach destroys the gate with a
 * WireFault before any more is held; an output that ends inside a message ends the gate as well,
 * the partial message dropped and counted in `partial`.
 */
export class FrameGate extends Transform {
  /** The message being read: its header chunks, then its body chunks. */
  private chunks: Buffer[] = [];
  private held = 0;
  /** The header's last bytes so far, where its end may have begun. */
  private tail: Buffer = Buffer.alloc(0);
  /** Header and body, once the header is read. */
  private frame: { header: number; body: number } | undefined;
  /** A message cut off by the end of the output: what it announced, and what came of it. */
  partial: { announced: number | undefined; received: number } | undefined;

  constructor(private readonly limit = MAX_RESPONSE_BYTES) {
    super();
  }

  /** Bytes held for the message being read: never more than the header's and the body's limits. */
  get buffered(): number {
    return this.held;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.frames(chunk);
      done();
    } catch (error) {
      this.chunks = [];
      this.held = 0;
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.held > 0) this.partial = { announced: this.frame?.body, received: this.frame ? this.held - this.frame.header : 0 };
    this.chunks = [];
    this.held = 0;
    done();
  }

  private frames(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (!this.frame) {
        // Where the header ends, if in this chunk: searched from the header's last three bytes on.
        const window = this.tail.length > 0 ? Buffer.concat([this.tail, rest]) : rest;
        const at = window.indexOf(HEADER_END);
        if (at < 0) {
          this.keep(rest);
          if (this.held > this.limit)
            throw new WireFault('too-large', `a message from the Copilot CLI passed ${this.limit} bytes with no end to its header; the rest was not read`);
          this.tail = window.subarray(Math.max(0, window.length - (HEADER_END.length - 1)));
          return;
        }
        const headerInRest = at + HEADER_END.length - this.tail.length;
        this.keep(rest.subarray(0, headerInRest));
        rest = rest.subarray(headerInRest);
        this.tail = Buffer.alloc(0);
        if (this.held > this.limit) throw new WireFault('too-large', `a message header from the Copilot CLI passed ${this.limit} bytes; the rest was not read`);
        this.frame = { header: this.held, body: this.announcedLength() };
      }
      const body = rest.subarray(0, this.frame.header + this.frame.body - this.held);
      this.keep(body);
      rest = rest.subarray(body.length);
      if (this.held === this.frame.header + this.frame.body) {
        this.push(this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.held));
        this.chunks = [];
        this.held = 0;
        this.frame = undefined;
      }
    }
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    this.chunks.push(part);
    this.held += part.length;
  }

  /** The header's Content-Length, checked against the limit before a byte of the body is held. */
  private announcedLength(): number {
    const header = Buffer.concat(this.chunks, this.held).toString('latin1');
    // The SDK's reader keeps the last of several Content-Length lines, and reads loosely formed
    // lines too: only a header it and we read alike passes, or a small announced length here could
    // let it buffer a huge one there.
    const lines = header.replace(/\r\n\r\n$/, '').split('\r\n');
    const lengths = lines.filter((line) => /^content-length:/i.test(line));
    const value = lengths.length === 1 ? /^content-length:[ \t]*(\d+)[ \t]*$/i.exec(lengths[0]!)?.[1] : undefined;
    if (value === undefined || !lines.every((line) => HEADER_LINE.test(line)))
      throw new WireFault('no-length', 'the Copilot CLI sent a message header without exactly one valid Content-Length');
    const length = Number(value);
    if (length > this.limit) {
      const announced = value.length > 16 ? `${value.slice(0, 16)}…` : value;
      throw new WireFault('too-large', `a message from the Copilot CLI announced ${announced} bytes, past the ${this.limit}-byte cap; it was not read`);
    }
    return length;
  }
}

/** A header line as the JSON-RPC base protocol writes it: `Name: value`, nothing else. */
const HEADER_LINE = /^[A-Za-z0-9-]+:[ \t]*[\x21-\x7e][\x20-\x7e]*$/;

/**
 * One CLI process's output, gated, and the moment it is gone. `gone` rejects with a WireFault, and
 * `fault` holds it, once the gate stopped the CLI, or once its output has ended and its process
 * exited (or failed to start); it never resolves, and nothing needs to wait on it.
 */
export class CopilotWire {
  readonly gone: Promise<never>;
  fault: WireFault | undefined;
  private fail!: (fault: WireFault) => void;
  private child: ChildProcess | undefined;
  private source: Readable | undefined;
  private gate: FrameGate | undefined;
  private closed = false;

  constructor(private readonly limit = MAX_RESPONSE_BYTES) {
    this.gone = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.gone.catch(() => undefined);
  }

  /**
   * Puts the gate between the CLI's stdout and whoever reads `child.stdout` from now on (the SDK's
   * reader): to be called once the CLI is spawned, before the SDK connects to it.
   */
  attach(child: ChildProcess): void {
    const source = child.stdout;
    if (!source) throw new Error('the Copilot CLI was started without a stdout pipe');
    const gate = new FrameGate(this.limit);
    [this.child, this.source, this.gate] = [child, source, gate];
    (child as { stdout: Readable | null }).stdout = gate;

    let ended = false;
    let exited = child.exitCode !== null || child.signalCode !== null;
    let failure: Error | undefined;
    const settle = () => {
      if (!ended || !(exited || failure)) return;
      const how = failure ? failure.message.split('\n')[0] : child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`;
      const partial = gate.partial;
      this.stop(
        partial
          ? new WireFault(
              'mid-message',
              `the Copilot CLI stopped mid-message (${how}): ` +
                (partial.announced === undefined
                  ? `its output ended inside a message header`
                  : `it announced ${partial.announced} bytes and sent ${partial.received}`),
            )
          : new WireFault('stopped', `the Copilot CLI stopped (${how})`),
      );
    };
    gate.on('error', (error) => {
      // The gate stopped reading: the CLI is stopped too, and its output is no longer read.
      source.unpipe(gate);
      source.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      this.stop(error instanceof WireFault ? error : new WireFault('stopped', `the Copilot CLI's output failed (${error.message})`));
    });
    gate.on('end', () => {
      ended = true;
      settle();
    });
    source.on('error', (error) => {
      // A read that fails ends the output: what came before it is still passed on.
      gate.end();
      failure ??= error;
    });
    child.once('exit', () => {
      exited = true;
      settle();
    });
    child.once('error', (error) => {
      failure = error;
      settle();
    });
    source.pipe(gate);
  }

  /** Stops reading the CLI's output and lets its pipes go (nothing more is wanted from a CLI being ended). */
  close(): void {
    this.closed = true;
    this.source?.unpipe();
    for (const stream of [this.source, this.gate, this.child?.stdin, this.child?.stderr]) stream?.destroy();
  }

  private stop(fault: WireFault): void {
    if (this.fault || this.closed) return;
    this.fault = fault;
    this.fail(fault);
  }
}
