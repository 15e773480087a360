/**
 * How the next page of links is asked for, whatever form the service chose (docs/api-contract.md, "Paging
 * forms"), and the opaque `nextCursor` text the client hands out for it.
 *
 * `nextCursor` is a token of this client, not the service's cursor: it carries the continuation (a cursor
 * value, the service's next-page URL, or the last id for `has_more` lists) and the id of the first link of
 * the list's first page, passed on from page to page. That id lets any later client (a Zapier dropdown's
 * next invocation, a trigger's next poll) see that a service answered "the next page" with the first page
 * again. Text that is not such a token (a cursor saved by an earlier version) is taken as the service's own
 * cursor.
 */
export type Continuation =
  /** A cursor value, sent in the list's cursor parameter. */
  | { kind: 'cursor'; value: string }
  /** The service's own next-page URL (already checked to be on the service's origin). */
  | { kind: 'url'; url: string }
  /** `has_more` lists without a cursor: the last link's id, sent in the "after" parameter. */
  | { kind: 'after'; id: string };

export interface ContinuationToken {
  next: Continuation;
  /** Id of the first link of the list's first page (the walk's top). */
  top?: string;
  /**
   * Fingerprints of the continuations followed before this one in the walk (walk-guard.ts), the last
   * TOKEN_TRAIL of them: a page whose next continuation is among them closes a circle, across calls too.
   */
  trail?: string[];
}

/**
 * A full page that named no next page: more links may follow, but not where. Handed out so that a caller
 * who needs only this page gets it; following it fails loudly with `unknown`, the reason.
 */
export interface UnknownContinuation {
  unknown: string;
}

const PREFIX = 'sl1.';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

function fromBase64Url(text: string): string | undefined {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 255);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

export function encodeContinuation(token: ContinuationToken | UnknownContinuation): string {
  if ('unknown' in token) return PREFIX + toBase64Url(JSON.stringify({ x: token.unknown }));
  const next = token.next;
  const compact: Record<string, string> =
    next.kind === 'cursor' ? { c: next.value } : next.kind === 'url' ? { u: next.url } : { a: next.id };
  if (token.top !== undefined) compact.t = token.top;
  if (token.trail !== undefined && token.trail.length > 0) compact.s = token.trail.join('.');
  return PREFIX + toBase64Url(JSON.stringify(compact));
}

function readToken(text: string): ContinuationToken | UnknownContinuation | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  const json = fromBase64Url(text.slice(PREFIX.length));
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const field = (key: string) => (typeof fields[key] === 'string' && fields[key] !== '' ? (fields[key] as string) : undefined);
  const unknown = field('x');
  if (unknown !== undefined) return { unknown };
  const c = field('c');
  const u = field('u');
  const a = field('a');
  const next: Continuation | undefined = c !== undefined ? { kind: 'cursor', value: c } : u !== undefined ? { kind: 'url', url: u } : a !== undefined ? { kind: 'after', id: a } : undefined;
  if (!next) return undefined;
  const token: ContinuationToken = { next };
  const top = field('t');
  if (top !== undefined) token.top = top;
  const trail = field('s');
  if (trail !== undefined) token.trail = trail.split('.').filter((part) => /^[0-9a-z]{1,8}$/.test(part));
  return token;
}

/** The continuation a `nextCursor` stands for; text of another origin is the service's own cursor. */
export function decodeContinuation(text: string): ContinuationToken | UnknownContinuation {
  return readToken(text) ?? { next: { kind: 'cursor', value: text } };
}

/** A continuation as one text (what its fingerprint is taken of). */
export function continuationText(next: Continuation): string {
  return `${next.kind}:${next.kind === 'cursor' ? next.value : next.kind === 'url' ? next.url : next.id}`;
}

export function sameContinuation(a: Continuation, b: Continuation): boolean {
  if (a.kind === 'cursor' && b.kind === 'cursor') return a.value === b.value;
  if (a.kind === 'url' && b.kind === 'url') return a.url === b.url;
  if (a.kind === 'after' && b.kind === 'after') return a.id === b.id;
  return false;
}
