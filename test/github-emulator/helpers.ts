// Small shared helpers with no state: role ranks, ids and dates, GitHub-shaped errors, and the
// web-flow signature. Separate so the state, renderer, faults, routes and server can all use them.
import { createHmac } from 'node:crypto';
import type { BasicError, BranchProtection, RoleName, ValidationError } from './types.js';

export const ROLE_RANK: Record<RoleName, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };
export const BUILT_IN_ROLES = new Set<string>(Object.keys(ROLE_RANK));
export const PERMISSION_OF_ROLE: Record<RoleName, 'admin' | 'write' | 'read' | 'none'> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};
export const DEFAULT_PROTECTION: BranchProtection = { status: 422, message: 'Changes must be made through a pull request.' };
export const KNOWN_BOT_IDS: Record<string, number> = { 'github-actions[bot]': 41898282, 'dependabot[bot]': 49699333 };
export const DOCS = 'https://docs.github.com/rest';

export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(`${prefix}:${id}`).toString('base64url')}`;
}

/** The prefix and numeric id behind an id made by `nodeId`, or undefined for anything else. */
export function parseNodeId(id: string): { prefix: string; id: number } | undefined {
  const m = /^([A-Z]+)_kwDO([A-Za-z0-9_-]+)$/.exec(id);
  if (!m) return undefined;
  const decoded = /^([A-Z]+):(\d+)$/.exec(Buffer.from(m[2] ?? '', 'base64url').toString('utf8'));
  if (!decoded || decoded[1] !== m[1]) return undefined;
  return { prefix: m[1] ?? '', id: Number(decoded[2]) };
}

export function lower(s: string): string {
  return s.toLowerCase();
}

export function bodyLength(body: string, unit: 'code-points' | 'utf8-bytes' | 'utf16-units'): number {
  if (unit === 'utf8-bytes') return Buffer.byteLength(body, 'utf8');
  if (unit === 'utf16-units') return body.length;
  let n = 0;
  for (const _ of body) n++;
  return n;
}

/** An error answered with a status and a GitHub-shaped JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export function basicError(status: number, message: string, documentation_url = DOCS): HttpError {
  const body: BasicError = { message, documentation_url, status: String(status) };
  return new HttpError(status, body);
}

export function notFound(): HttpError {
  return basicError(404, 'Not Found', DOCS);
}

export function validationFailed(documentation_url: string, errors: NonNullable<ValidationError['errors']>, message = 'Validation Failed'): HttpError {
  const body: ValidationError & { status: string } = { message, errors, documentation_url, status: '422' };
  return new HttpError(422, body);
}

// ---------------------------------------------------------------------------------------------
// Git helpers

/** GitHub's committer for commits it makes and signs itself ("web-flow"). */
export const WEB_FLOW = { name: 'GitHub', email: 'noreply@github.com' } as const;
const WEB_FLOW_KEY = 'github-emulator web-flow key';

/**
 * The emulator's stand-in for GitHub's web-flow PGP signature: an armored block whose body is an
 * HMAC of the payload, so `verifySignature` can check it. It is not a real OpenPGP packet.
 */
export function signPayload(payload: string): string {
  const mac = createHmac('sha256', WEB_FLOW_KEY).update(payload).digest();
  const body = Buffer.concat([Buffer.from('github-emulator web-flow signature\0'), mac]).toString('base64');
  const lines = body.match(/.{1,64}/g) ?? [];
  return ['-----BEGIN PGP SIGNATURE-----', '', ...lines, `=${mac.subarray(0, 3).toString('base64')}`, '-----END PGP SIGNATURE-----', ''].join('\n');
}

export function verifySignature(payload: string | null, signature: string | null): boolean {
  return payload !== null && signature !== null && signature === signPayload(payload);
}

/** Base64 in lines of 60 characters, each ending with a newline, as GitHub serves blob and file content. */
export function base64Lines(buf: Buffer): string {
  const b64 = buf.toString('base64');
  return b64 === '' ? '' : `${(b64.match(/.{1,60}/g) ?? []).join('\n')}\n`;
}

export function gitIsoDate(time: number): string {
  return isoSeconds(new Date(time * 1000));
}

export function isSha(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{40}$/.test(s);
}

export function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}
