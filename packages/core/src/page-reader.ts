/**
 * The one tolerant reader of list answers. The document's shape ({ data, nextCursor }) is tried first;
 * other common shapes are read too, so a service that differs slightly does not break the hosts:
 * the list under `data`, `items`, `links` (or `results`), or a bare array; the next cursor under
 * `nextCursor`, `next_cursor`, `next`, `cursor`, or inside a `pagination` / `meta` object.
 * Numeric ids become strings; unknown extra fields are kept.
 */
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

/** The array of items, or undefined when the body holds none. */
export function readItems(body: unknown, preferredKeys: readonly string[] = LIST_KEYS): unknown[] | undefined {
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

/** Reads one page of links, or returns undefined when the body holds no list. */
export function readLinkPage(body: unknown): LinkPage | undefined {
  // The document's shape first: no guessing needed.
  if (isRecord(body) && Array.isArray(body.data) && ('nextCursor' in body)) {
    return { links: (body.data as unknown[]).map((l) => normalizeRecord<Link>(l)), nextCursor: cursorValue(body.nextCursor) ?? null };
  }
  const items = readItems(body, ['data', 'items', 'links', 'results']);
  if (!items) return undefined;
  return { links: items.map((l) => normalizeRecord<Link>(l)), nextCursor: readNextCursor(body) };
}

/** Reads the domain list, or returns undefined when the body holds no list. */
export function readDomains(body: unknown): Domain[] | undefined {
  const items = readItems(body, ['data', 'domains', 'items', 'results']);
  return items?.map((d) => normalizeRecord<Domain>(d));
}
