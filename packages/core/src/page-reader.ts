/**
 * The one tolerant reader of list answers. The document's shape ({ data, nextCursor }) is tried first;
 * other common shapes are read too, so a service that differs slightly does not break the hosts:
 * the list under `data`, `items`, `links` (or `results`), or a bare array; the next cursor under
 * `nextCursor`, `next_cursor`, `next`, `cursor`, or inside a `pagination` / `meta` object.
 * Numeric ids become strings; unknown extra fields are kept.
 */
import { UnexpectedResponseError } from './errors';
import { statusText } from './error-from-response';
import type { Domain, Link, LinkPage } from './types';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const LIST_KEYS = ['data', 'items', 'links', 'results', 'domains'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'next', 'cursor', 'nextPageToken', 'next_page_token'];
const CURSOR_HOLDERS = ['pagination', 'meta', 'page', 'paging'];
const CURSOR_QUERY_KEYS = ['cursor', 'next', 'nextCursor', 'next_cursor', 'starting_after', 'page'];

/** A numeric id becomes text; anything else is kept as it is. */
export function normalizeRecord<T>(item: unknown): T {
  if (!isRecord(item)) return item as T;
  if (typeof item.id === 'number') return { ...item, id: String(item.id) } as T;
  return item as T;
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

function cursorValue(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return null;
  // A "next" link (https://…/links?cursor=abc): take its cursor parameter.
  if (/^https?:\/\//i.test(value)) {
    try {
      const params = new URL(value).searchParams;
      for (const key of CURSOR_QUERY_KEYS) {
        const inner = params.get(key);
        if (inner) return inner;
      }
    } catch {
      // not a URL after all
    }
  }
  return value;
}

function cursorIn(holder: Json): string | null | undefined {
  // An explicit "no more pages" wins over a leftover cursor.
  if (holder.hasMore === false || holder.has_more === false) return null;
  for (const key of CURSOR_KEYS) {
    if (key in holder) {
      const value = cursorValue(holder[key]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The next cursor of a list answer; null when there is none. */
export function readNextCursor(body: unknown): string | null {
  if (!isRecord(body)) return null;
  const direct = cursorIn(body);
  if (direct !== undefined) return direct;
  for (const key of CURSOR_HOLDERS) {
    const holder = body[key];
    if (isRecord(holder)) {
      const nested = cursorIn(holder);
      if (nested !== undefined) return nested;
    }
  }
  return null;
}

/**
 * Reads one page of links, or returns undefined when the body holds no list. Throws
 * UnexpectedResponseError when the list holds entries that are not objects.
 */
export function readLinkPage(body: unknown, status?: number): LinkPage | undefined {
  // The document's shape first: no guessing needed.
  if (isRecord(body) && Array.isArray(body.data) && ('nextCursor' in body)) {
    const links = checkEntriesAreObjects(body.data as unknown[], status);
    return { links: links.map((l) => normalizeRecord<Link>(l)), nextCursor: cursorValue(body.nextCursor) ?? null };
  }
  const items = readItems(body, ['data', 'items', 'links', 'results'], status);
  if (!items) return undefined;
  return { links: items.map((l) => normalizeRecord<Link>(l)), nextCursor: readNextCursor(body) };
}

/**
 * Reads the domain list, or returns undefined when the body holds no list. Throws
 * UnexpectedResponseError when the list holds entries that are not objects.
 */
export function readDomains(body: unknown, status?: number): Domain[] | undefined {
  const items = readItems(body, ['data', 'domains', 'items', 'results'], status);
  return items?.map((d) => normalizeRecord<Domain>(d));
}
