// A stand-in for the GitHub Copilot CLI in server mode: what `@github/copilot-sdk` launches with
// `--headless --stdio`, speaking the SDK's JSON-RPC protocol (version 3) over stdin/stdout with
// `Content-Length` framing, as the SDK's own types define the messages (client `connect`,
// `session.create`, `session.send`, `session.detach`, `runtime.shutdown`,
// `session.permissions.handlePendingPermissionRequest`; server `session.event` notifications carrying
// `assistant.message`, `assistant.usage`, `session.idle`, `session.error` and `permission.requested`).
//
// What it does is scripted by a JSON file named in COPILOT_STAND_IN:
//   { "startup"?: "crash", "protocolVersion"?: 3, "steps": [Step…], "fallback"?: Step }
// one step per `session.send`, in order across restarts (the log counts them). A Step is
//   { "reply": <JSON or string>, "usage"?: {"input", "output"} }  the model's answer
//   { "reader": true }                 an answer quoting the first prose line of each page sent
//   { "error": {errorType, message, statusCode?, errorCode?} }  a `session.error` event
//   { "askTool": true, …another step } first a shell permission request, then the step
//   { "hang": true }                   acknowledge, then never answer
//   { "exitAfterAck": true }           acknowledge, then exit (a crash mid-answer)
//   { "exitBeforeAck": true }          exit without acknowledging
// and on the wire, after acknowledging (test/hostile/copilot-wire.test.ts):
//   { "halfMessage": true }            a header announcing a message, half its body, then exit (code 1)
//   { "hugeFrame": true }              a header announcing 2 GB, then a body streamed until it is stopped
//   { "endlessHeader": true }          a header streamed until it is stopped, never ended
// and a CLI that misbehaves (test/hostile/), with "hostile": { … }:
//   "ignoreShutdown": true | "silent"  ignore SIGTERM and stay alive after `runtime.shutdown`
//                                      (answered, or with "silent" not even answered)
//   "stderrToken": true   print the token on stderr, as a stack trace would
//   "otherSession": true  also send a forged reply for another session id
//   "externalTool": true  also ask the client to run a shell tool
//   "garbage": true       also send a frame that is not JSON
// Every message received, with the launch's argv, its pid, its COPILOT_GITHUB_TOKEN and its whole
// environment, is appended to the JSONL file named in COPILOT_STAND_IN_LOG.
import { appendFileSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

const scenario = JSON.parse(readFileSync(process.env.COPILOT_STAND_IN, 'utf8'));
const logFile = process.env.COPILOT_STAND_IN_LOG;
const log = (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
const sendsSoFar = () =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"method":"session.send"')).length;

log({
  launch: process.argv.slice(2),
  token: process.env.COPILOT_GITHUB_TOKEN ?? null,
  envNames: Object.keys(process.env).sort(),
  env: process.env,
  cwd: process.cwd(),
  pid: process.pid,
});

const mode = scenario.hostile ?? {};
if (mode.stderrToken) process.stderr.write(`Error: boom\n    at leak (${process.env.COPILOT_GITHUB_TOKEN})\n`);
if (mode.ignoreShutdown) {
  process.on('SIGTERM', () => log({ signal: 'SIGTERM' }));
  process.on('SIGINT', () => log({ signal: 'SIGINT' }));
  setInterval(() => {}, 1000);
}
if (scenario.startup === 'crash') {
  process.stderr.write('copilot: fatal: the stand-in was told to crash at start-up\n');
  process.exit(3);
}

function write(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}
/** Writes `prefix`, then `unit` over and over, one 64 KiB chunk after another, until the pipe is closed or this process killed. */
function streamEndlessly(prefix, unit) {
  const chunk = Buffer.alloc(64 * 1024, unit);
  const more = (error) => (error ? process.exit(0) : process.stdout.write(chunk, (e) => setImmediate(() => more(e))));
  process.stdout.on('error', () => process.exit(0));
  process.stdout.write(prefix, more);
}
const respond = (id, result) => write({ id, result });
const fail = (id, code, message) => write({ id, error: { code, message } });
let parentId = null;
function emit(sessionId, type, data, ephemeral = false) {
  const id = randomUUID();
  write({
    method: 'session.event',
    params: { sessionId, event: { id, timestamp: new Date().toISOString(), parentId, ...(ephemeral ? { ephemeral: true } : {}), type, data } },
  });
  parentId = id;
}

/** Pages as the model answerer sends them: `<page path="…">` blocks of numbered lines. */
function pagesIn(prompt) {
  return [...prompt.matchAll(/<page path="([^"]*)">\n([\s\S]*?)\n<\/page>/g)].map(([, path, block]) => ({
    path,
    lines: block
      .split('\n')
      .map((line) => /^(\d+)\| (.*)$/.exec(line))
      .filter(Boolean)
      .map(([, n, text]) => ({ n: Number(n), text })),
  }));
}

/** An answer citing, for each page, its first line of plain prose, exactly as sent; a merge keeps every partial's claims. */
function readerAnswer(prompt) {
  const partials = [...prompt.matchAll(/<partial n="\d+">\n([\s\S]*?)\n<\/partial>/g)].map((m) => JSON.parse(m[1]));
  if (partials.length > 0) {
    return {
      claims: partials.flatMap((p) => p.claims),
      covered: partials.every((p) => p.covered),
      uncovered: [...new Set(partials.flatMap((p) => p.uncovered))],
    };
  }
  const claims = [];
  for (const page of pagesIn(prompt)) {
    const close = page.lines.findIndex((line, i) => i > 0 && line.text === '---');
    const body = page.lines[0]?.text === '---' && close > 0 ? page.lines.slice(close + 1) : page.lines;
    const prose = body.find((line) => /^[A-Za-z`][^|#>[]{30,}\.$/.test(line.text.trim()));
    if (prose) claims.push({ text: prose.text.trim(), citations: [{ path: page.path, start_line: prose.n, end_line: prose.n, quote: prose.text }] });
  }
  return { claims, covered: claims.length > 0, uncovered: [] };
}

function play(step, sessionId, prompt, messageId) {
  if (step.askTool) {
    const requestId = randomUUID();
    emit(sessionId, 'permission.requested', {
      requestId,
      permissionRequest: {
        kind: 'shell',
        canOfferSessionApproval: false,
        commands: [{ identifier: 'cat', readOnly: true }],
        fullCommandText: 'cat ~/.ssh/id_rsa',
        hasWriteFileRedirection: false,
        intention: 'Read a file outside the pages',
        possiblePaths: ['~/.ssh/id_rsa'],
        possibleUrls: [],
      },
    });
    const { askTool: _askTool, ...rest } = step;
    pendingAfterPermission = () => play(rest, sessionId, prompt, messageId);
    return;
  }
  if (step.hang) return;
  if (step.exitAfterAck) process.exit(1);
  if (step.halfMessage) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params: { sessionId, event: { type: 'assistant.message' } } }));
    process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
    process.stdout.write(body.subarray(0, body.length >> 1), () => process.exit(1));
    return;
  }
  if (step.hugeFrame) return streamEndlessly(`Content-Length: ${2 ** 31}\r\n\r\n`, 'x');
  if (step.endlessHeader) return streamEndlessly('X-Padding: ', 'a');
  if (step.error) {
    emit(sessionId, 'session.error', step.error);
    return;
  }
  const reply = step.reader ? readerAnswer(prompt) : step.reply;
  const content = typeof reply === 'string' ? reply : JSON.stringify(reply);
  const usage = step.usage ?? { input: Math.ceil(prompt.length / 4), output: Math.ceil(content.length / 4) };
  if (mode.otherSession) {
    emit('other-session-id', 'assistant.message', { messageId: 'x', content: 'FORGED' });
    emit('other-session-id', 'session.idle', {}, true);
  }
  if (mode.externalTool)
    emit(sessionId, 'external_tool.requested', { requestId: 'r1', sessionId, toolCallId: 't1', toolName: 'bash', arguments: { command: 'cat /etc/passwd' } });
  if (mode.garbage) {
    process.stdout.write('Content-Length: 5\r\n\r\n{{{{{');
  }
  emit(sessionId, 'assistant.turn_start', { turnId: '0' });
  emit(sessionId, 'assistant.message', { messageId, content });
  emit(sessionId, 'assistant.usage', { model: sessions.get(sessionId)?.model ?? 'unknown', inputTokens: usage.input, outputTokens: usage.output }, true);
  emit(sessionId, 'assistant.turn_end', { turnId: '0' });
  emit(sessionId, 'session.idle', {}, true);
}

const sessions = new Map();
let pendingAfterPermission;

function handle(message) {
  log({ method: message.method, params: message.params ?? null, id: message.id ?? null });
  const { id, method, params } = message;
  if (id === undefined) return; // a notification: nothing to answer
  switch (method) {
    case 'connect':
      return respond(id, { ok: true, protocolVersion: scenario.protocolVersion ?? 3, version: '1.0.85-stand-in' });
    case 'session.create':
      sessions.set(params.sessionId, { model: params.model });
      return respond(id, { sessionId: params.sessionId, workspacePath: process.cwd() });
    case 'session.send': {
      const index = sendsSoFar() - 1;
      const step = scenario.steps?.[index] ?? scenario.fallback ?? { reader: true };
      if (step.exitBeforeAck) process.exit(1);
      const messageId = randomUUID();
      respond(id, { messageId });
      emit(params.sessionId, 'user.message', { content: params.prompt });
      return play(step, params.sessionId, params.prompt, messageId);
    }
    case 'session.permissions.handlePendingPermissionRequest': {
      respond(id, { success: true });
      const next = pendingAfterPermission;
      pendingAfterPermission = undefined;
      return next?.();
    }
    case 'session.detach':
      sessions.delete(params.sessionId);
      return respond(id, { success: true });
    case 'runtime.shutdown':
      if (mode.ignoreShutdown === 'silent') return;
      respond(id, {});
      if (mode.ignoreShutdown) return;
      return setImmediate(() => process.exit(0));
    default:
      return fail(id, -32601, `Unhandled method ${method}`);
  }
}

// Content-Length framing over stdin.
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    buffer = buffer.subarray(headerEnd + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => {
  if (!mode.ignoreShutdown) process.exit(0);
});
