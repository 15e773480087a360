/**
 * The one tolerant reader of list answers (docs/api-contract.md, "Paging forms"). The document's shape
 * ({ data, nextCursor }) is tried first; the other common forms are read too:
 * - the list under `data`, `items`, `links`, `results`, `records` or `entries`, or a bare array;
 * - the continuation as a cursor field (`nextCursor`, `next_cursor`, `next`, `cursor`, `next_page_token`…)
 *   at the top or inside a `cursor`, `pagination`, `meta`, `paging`, `page`, `links`, `_links`,
 *   `pageInfo` or `response_metadata` object; as a next-page URL (`links: { next: "https://…" }`,
 *   `next_url`, `{ href }`); as an RFC 8288 `Link: <…>; rel="next"` header; or as `has_more: true` with
 *   no cursor at all (the next page starts after the last link's id, as Stripe pages).
 *
 * The reader tells three answers apart: a continuation, an explicit end (`nextCursor: null`,
 * `has_more: false`, a Link header without "next"…), and no sign of either. The client decides what
 * the last one means (a full page without a continuation is not the end: it fails loudly).
 */
import { UnexpectedResponseError } from '../errors';
import { statusText } from '../http/error-from-response';
import { nextLinkTarget } from './link-header';
import { normalizeDomain, normalizeRecord } from './record-readers';
import type { Domain, Link, LinkPage } from '../types';
import { isRecord } from '../basics/json';

type Json = Record<string, unknown>;


const LIST_KEYS = ['data', 'items', 'links', 'results', 'records', 'entries'];
const DOMAIN_LIST_KEYS = ['data', 'domains', 'items', 'results', 'records'];
/** Fields that hold the next page's cursor (or URL). */
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'nextPageToken', 'next_page_token', 'nextToken', 'next_token', 'next', 'nextPage', 'next_page', 'cursor'];
/** Fields that hold the next page's URL: a relative value ('/api/v1/links?…') counts as a URL here. */
const URL_KEYS = ['nextUrl', 'next_url', 'nextPageUrl', 'next_page_url', 'nextLink', 'next_link', '@odata.nextLink'];
/** Objects that carry paging information. */
const HOLDERS = ['cursor', 'cursors', 'pagination', 'paging', 'page', 'meta', 'links', '_links', 'pageInfo', 'page_info', 'response_metadata'];
/** Holders whose `next` is a link (JSON:API `links`, HAL `_links`). */
const LINK_HOLDERS = new Set(['links', '_links']);
/** Booleans saying whether another page exists. */
const MORE_KEYS = ['hasMore', 'has_more', 'hasNextPage', 'has_next_page', 'more'];
/** GraphQL-style holders name the cursor of the last item `endCursor`, next to `hasNextPage`. */
const END_CURSOR_KEYS = ['endCursor', 'end_cursor'];

/** How a page said where the next one is. */
export type PagingForm = 'document' | 'cursor field' | 'nested cursor' | 'next URL' | 'Link header' | 'has_more + last id';

/** A continuation as the answer gave it; a URL may still be relative (the client resolves and checks it). */
export type RawContinuation = { kind: 'cursor'; value: string } | { kind: 'url'; url: string } | { kind: 'after'; id: string };

export type NextSign =
  | { state: 'next'; next: RawContinuation; form: PagingForm; where: string }
  | { state: 'end'; form: PagingForm; where: string }
  /** Neither a continuation nor an end: the answer does not say whether more pages exist. */
  | { state: 'none' };

export interface ListAnswer {
  links: Link[];
  sign: NextSign;
  /** What the answer held, for messages: its top-level keys (or "a bare array") and a Link header. */
  shape: string;
}

/**
 * A list of links or domains holds objects only: [1,2,3] or ["a"] is not a list of records, and
 * reading it as one would hand the host numbers as "links" (or, after filtering, "nothing found").
 */
function checkEntriesAreObjects(items: unknown[], status: number | undefined): unknown[] {
  const wrong = items.filter((item) => !isRecord(item)).length;
  if (wrong === 0) return items;
  const at = status === undefined ? '' : ` (${statusText(status)})`;
  const init = {
    title: 'Unexpected response',
    message: `Unexpected response${at} where a list of records was expected: the list holds ${wrong} ${wrong === 1 ? 'entry that is not an object' : 'entries that are not objects'}.`,
  };
  throw new UnexpectedResponseError(status === undefined ? init : { ...init, status });
}

function findItems(body: unknown, preferredKeys: readonly string[]): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) return undefined;
  for (const key of preferredKeys) if (Array.isArray(body[key])) return body[key] as unknown[];
  // { data: { items: [...] } } and similar one-level nesting.
  for (const key of preferredKeys) {
    const inner = body[key];
    if (isRecord(inner)) for (const innerKey of preferredKeys) if (Array.isArray(inner[innerKey])) return inner[innerKey] as unknown[];
  }
  return undefined;
}

/**
 * The array of items, or undefined when the body holds none. Throws UnexpectedResponseError when the
 * list holds entries that are not objects (status: the answer's HTTP status, named in the message).
 */
export function readItems(body: unknown, preferredKeys: readonly string[] = LIST_KEYS, status?: number): unknown[] | undefined {
  const items = findItems(body, preferredKeys);
  return items && checkEntriesAreObjects(items, status);
}

/** null: an explicit "no next page"; undefined: not a continuation value. */
function continuationValue(value: unknown, urlish: boolean): RawContinuation | null | undefined {
  if (value === null || value === false) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'cursor', value: String(value) };
  if (isRecord(value) && typeof value.href === 'string') return continuationValue(value.href, true);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return null;
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  if (urlish && /^[/?]/.test(text)) return { kind: 'url', url: text };
  return { kind: 'cursor', value: text };
}

interface HolderScan {
  next?: { next: RawContinuation; where: string };
  end?: string;
  more?: { value: boolean; where: string };
}

function scanHolder(holder: Json, path: string, inLinkHolder: boolean, depth: number): HolderScan {
  const scan: HolderScan = {};
  for (const key of MORE_KEYS) {
    if (typeof holder[key] === 'boolean') {
      scan.more = { value: holder[key] as boolean, where: `${path}${key}` };
      break;
    }
  }
  // An explicit "no more pages" wins over a leftover cursor in the same object.
  if (scan.more?.value === false) return { end: scan.more.where, more: scan.more };
  const keys = scan.more?.value === true ? [...CURSOR_KEYS, ...URL_KEYS, ...END_CURSOR_KEYS] : [...CURSOR_KEYS, ...URL_KEYS];
  for (const key of keys) {
    if (!(key in holder)) continue;
    const value = holder[key];
    // `cursor: { next }` and friends are holders, read below.
    if (isRecord(value) && typeof value.href !== 'string') continue;
    const found = continuationValue(value, inLinkHolder || URL_KEYS.includes(key));
    if (found) return { ...scan, next: { next: found, where: `${path}${key}` } };
    if (found === null) scan.end ??= `${path}${key}`;
  }
  if (depth < 2) {
    for (const key of HOLDERS) {
      const inner = holder[key];
      if (!isRecord(inner)) continue;
      const nested = scanHolder(inner, `${path}${key}.`, LINK_HOLDERS.has(key), depth + 1);
      if (nested.next) return { ...scan, next: nested.next };
      if (nested.end !== undefined) scan.end ??= nested.end;
      if (nested.more !== undefined) scan.more ??= nested.more;
    }
  }
  return scan;
}

function formOf(next: RawContinuation, where: string): PagingForm {
  if (next.kind === 'url') return 'next URL';
  return where.includes('.') ? 'nested cursor' : 'cursor field';
}

function describeShape(body: unknown, linkHeader: string | undefined): string {
  const what = Array.isArray(body) ? 'a bare array' : isRecord(body) ? `an object with ${Object.keys(body).slice(0, 12).join(', ') || 'no fields'}` : typeof body;
  return linkHeader === undefined ? `${what}, no Link header` : `${what} and the Link header "${linkHeader.slice(0, 200)}"`;
}

/** Where the next page is, from the body and the Link header. */
function readSign(body: unknown, links: Link[], linkHeader: string | undefined): NextSign {
  let scan: HolderScan = {};
  if (isRecord(body)) {
    // The document's shape first: no guessing needed.
    if (Array.isArray(body.data) && 'nextCursor' in body) {
      const value = continuationValue(body.nextCursor, false);
      if (value === null) return { state: 'end', form: 'document', where: 'nextCursor' };
      if (value) return { state: 'next', next: value, form: value.kind === 'url' ? 'next URL' : 'document', where: 'nextCursor' };
    }
    scan = scanHolder(body, '', false, 0);
    if (scan.next) return { state: 'next', next: scan.next.next, form: formOf(scan.next.next, scan.next.where), where: scan.next.where };
  }
  const target = nextLinkTarget(linkHeader);
  if (typeof target === 'string') return { state: 'next', next: { kind: 'url', url: target }, form: 'Link header', where: 'Link header' };
  if (scan.end !== undefined) return { state: 'end', form: scan.more?.where === scan.end ? 'has_more + last id' : 'cursor field', where: scan.end };
  if (target === null) return { state: 'end', form: 'Link header', where: 'Link header' };
  if (scan.more?.value === true) {
    const last = links[links.length - 1];
    if (last && typeof last.id === 'string' && last.id !== '') return { state: 'next', next: { kind: 'after', id: last.id }, form: 'has_more + last id', where: scan.more.where };
  }
  return { state: 'none' };
}

/**
 * Reads one list answer: the links and where the next page is. undefined when the body holds no list;
 * throws UnexpectedResponseError when the list holds entries that are not objects.
 */
export function readListAnswer(body: unknown, headers: Record<string, string | undefined> = {}, status?: number): ListAnswer | undefined {
  const items = readItems(body, LIST_KEYS, status);
  if (!items) return undefined;
  const links = items.map((item) => normalizeRecord<Link>(item));
  return { links, sign: readSign(body, links, headers.link), shape: describeShape(body, headers.link) };
}

/**
 * One page as the service said it, for callers outside the client: `nextCursor` is the service's own
 * continuation text (its cursor, its next-page URL, or the last id of a `has_more` page), null when the
 * answer names none. The client's listLinks follows these itself; use it rather than this.
 */
export function readLinkPage(body: unknown, status?: number, headers: Record<string, string | undefined> = {}): LinkPage | undefined {
  const answer = readListAnswer(body, headers, status);
  if (!answer) return undefined;
  const { sign } = answer;
  const next = sign.state === 'next' ? sign.next : undefined;
  const nextCursor = next === undefined ? null : next.kind === 'cursor' ? next.value : next.kind === 'url' ? next.url : next.id;
  return { links: answer.links, nextCursor };
}

/**
 * Reads the domain list, or returns undefined when the body holds no list. Each record gets `hostname`
 * when the service names it otherwise (`domain`, `name`, `host`…); `hostnameField` says which name the
 * service used. Throws UnexpectedResponseError when the list holds entries that are not objects.
 */
export function readDomainList(body: unknown, status?: number): { domains: Domain[]; hostnameField?: string } | undefined {
  const items = readItems(body, DOMAIN_LIST_KEYS, status);
  if (!items) return undefined;
  const read = items.map((item) => normalizeDomain(item));
  const hostnameField = read.find((entry) => entry.field !== undefined)?.field;
  const domains = read.map((entry) => entry.domain);
  return hostnameField === undefined ? { domains } : { domains, hostnameField };
}

/** The domains of a list answer (readDomainList without the field name). */
export function readDomains(body: unknown, status?: number): Domain[] | undefined {
  return readDomainList(body, status)?.domains;
}
