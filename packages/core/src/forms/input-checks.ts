/**
 * Checks made before any request, so that obvious mistakes fail fast with the field named. The client
 * leaves the rest (slug characters, lengths, domains) to the service's 422; hosts whose users type slugs
 * call checkSlug themselves, so that a typo is explained before anything is sent.
 */
import { MAX_PAGE_SIZE } from '../basics/page-size';
import { InputError } from '../errors';
import type { CreateLinkInput, UpdateLinkInput } from '../types';
import { isRecord } from '../basics/json';

function show(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}"`;
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}


/** An absolute http(s) URL. */
export function checkHttpUrl(value: unknown, field: string): string {
  if (value === undefined || value === null || value === '') {
    throw new InputError(field, `${field} is required: an absolute http(s) URL such as https://example.org/page.`);
  }
  if (typeof value !== 'string') {
    throw new InputError(field, `${field} must be a string with an absolute http(s) URL; got ${show(value)}.`);
  }
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !/^https?:\/\//i.test(value.trim())) {
    throw new InputError(field, `${field} must be an absolute http(s) URL such as https://example.org/page; got ${show(value)}.`);
  }
  return value.trim();
}

/** Half of a UTF-16 surrogate pair without its other half: text that cannot be put into a URL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses text with a broken character (a lone surrogate), naming the field, before encodeURIComponent would throw "URI malformed". */
export function checkWellFormed(text: string, field: string): string {
  if (LONE_SURROGATE.test(text)) {
    throw new InputError(field, `${field} contains a broken character (half of an emoji or other symbol, often from cutting text); remove it or paste the value again.`);
  }
  return text;
}

/** The longest link id sent to the service. */
export const MAX_LINK_ID_LENGTH = 256;

/** A link id: a non-empty string (a whole number is accepted and turned into text). */
export function checkLinkId(id: unknown, field = 'id'): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  if (typeof id !== 'string' || id.trim() === '') {
    throw new InputError(field, `${field} must be a non-empty string (the link's id, e.g. "1042"); got ${show(id)}.`);
  }
  if (id === '.' || id === '..') {
    throw new InputError(field, `${field} must be a link id such as "1042"; "${id}" is not allowed.`);
  }
  // Link ids are short; a huge one would only earn a 414 that echoes the whole path back.
  if (id.length > MAX_LINK_ID_LENGTH) {
    throw new InputError(field, `${field} must be a link id of at most ${MAX_LINK_ID_LENGTH} characters; got ${id.length} characters (${show(id)}).`);
  }
  return checkWellFormed(id, field);
}

/**
 * '/links/<id>' with the id path-encoded, so that '../me', '1/stats' or '%2F' stay one path segment
 * and can never reach another endpoint ('.' and '..' are rejected: encodeURIComponent keeps them).
 */
export function linkPath(id: unknown, suffix = ''): string {
  return `/links/${encodeURIComponent(checkLinkId(id))}${suffix}`;
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** A real calendar day (Date.parse rolls 2026-02-30 over to March instead of failing). */
function isRealDay(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * ISO 8601 date-time with a time zone (Z or an offset). Sent as UTC with milliseconds, the form the
 * service stores, so that every form accepted here is also accepted there.
 */
export function checkTimestamp(value: unknown, field: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!ISO_WITH_ZONE.test(text) || !isRealDay(text) || Number.isNaN(Date.parse(text))) {
    throw new InputError(
      field,
      `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T23:59:59Z or 2026-12-31T23:59:59+01:00; got ${show(value)}.`,
    );
  }
  return new Date(Date.parse(text)).toISOString();
}

/** The service's slug rule (openapi components.schemas.Slug), in words for people. */
export const SLUG_RULE = 'letters, digits, "-" and "_" only, starting with a letter or digit, at most 64 characters';
const SLUG_CHARACTER = /[A-Za-z0-9_-]/;
export const MAX_SLUG_LENGTH = 64;

function nameOf(character: string): string {
  if (character === ' ') return 'a space';
  if (/\s/.test(character)) return 'a line break or tab';
  return `"${character}"`;
}

/** A custom slug, explained in words when it breaks the rule (which character, or how long). */
export function checkSlug(value: unknown, field = 'slug'): string {
  if (typeof value !== 'string' || value === '') {
    throw new InputError(field, `${field} must be text: ${SLUG_RULE}; got ${show(value)}.`);
  }
  const characters = [...value];
  const wrong = characters.find((character) => !SLUG_CHARACTER.test(character));
  if (wrong !== undefined) {
    throw new InputError(field, `${field} may contain ${SLUG_RULE}; ${nameOf(wrong)} is not allowed (got ${show(value)}).`);
  }
  if (!/^[A-Za-z0-9]/.test(value)) {
    throw new InputError(field, `${field} must start with a letter or digit (${SLUG_RULE}); got ${show(value)}.`);
  }
  if (characters.length > MAX_SLUG_LENGTH) {
    throw new InputError(field, `${field} may have at most ${MAX_SLUG_LENGTH} characters (${SLUG_RULE}); got ${characters.length}.`);
  }
  return value;
}

/** Page size: a whole number from 1 to the service's largest page. */
export function checkPageSize(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new InputError(field, `${field} must be a whole number from 1 to ${MAX_PAGE_SIZE}; got ${show(value)}.`);
  }
  return value;
}

/** A positive whole number (page or result bounds). */
export function checkPositiveInteger(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InputError(field, `${field} must be a whole number of at least 1; got ${show(value)}.`);
  }
  return value;
}

/** Drops keys whose value is undefined (JSON would drop them anyway; the checks must not count them). */
function definedEntries(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value;
  return out;
}

export function checkCreateInput(input: unknown): CreateLinkInput {
  if (!isRecord(input)) {
    throw new InputError('input', `The link to create must be an object with at least targetUrl; got ${show(input)}.`);
  }
  const body = definedEntries(input);
  body.targetUrl = checkHttpUrl(body.targetUrl, 'targetUrl');
  if (body.expiresAt !== undefined) body.expiresAt = checkTimestamp(body.expiresAt, 'expiresAt');
  return body as CreateLinkInput;
}

const UPDATABLE_FIELDS = ['targetUrl', 'slug', 'title', 'active', 'expiresAt', 'password'];

export function checkUpdateInput(patch: unknown): UpdateLinkInput {
  if (!isRecord(patch)) {
    throw new InputError('patch', `The update must be an object with at least one of ${UPDATABLE_FIELDS.join(', ')}; got ${show(patch)}.`);
  }
  const body = definedEntries(patch);
  if (Object.keys(body).length === 0) {
    throw new InputError('patch', `The update must change at least one field: ${UPDATABLE_FIELDS.join(', ')}.`);
  }
  if (body.targetUrl !== undefined) body.targetUrl = checkHttpUrl(body.targetUrl, 'targetUrl');
  if (body.expiresAt !== undefined && body.expiresAt !== null) body.expiresAt = checkTimestamp(body.expiresAt, 'expiresAt');
  return body as UpdateLinkInput;
}
