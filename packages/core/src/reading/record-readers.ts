/**
 * Readers of the records whose shape the spec leaves open (docs/api-contract.md, "Record shapes"): the
 * domain record, the account record, and single records wrapped in an envelope. The document's names
 * come first; the common other names fill in what is missing, so that the n8n domain picker, Zapier's
 * Domain dropdown and the connection label work whichever the service chose. Every field the service
 * sent is kept.
 */
import type { Account, Domain } from '../types';
import { isRecord } from '../basics/json';
import type { TransportResponse } from '../http/transport';
import { unexpectedBody } from '../http/error-from-response';

type Json = Record<string, unknown>;


function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Where a domain record may keep its hostname, the document's name first. */
const HOSTNAME_FIELDS = ['hostname', 'domain', 'name', 'host', 'domainName', 'domain_name', 'fqdn'];
/** Envelopes around one record (`{ data: {...} }`). */
const ENVELOPES = ['data', 'link', 'domain', 'account', 'user', 'result', 'item'];
const NAME_FIELDS = ['name', 'displayName', 'display_name', 'fullName', 'full_name', 'accountName', 'account_name', 'username', 'userName', 'companyName', 'company_name', 'company', 'organization', 'organisation', 'workspace'];
const EMAIL_FIELDS = ['email', 'emailAddress', 'email_address', 'mail', 'contactEmail', 'contact_email'];

/** The first field of `record` (or of an object under one of `fields`, e.g. `organization.name`) holding text. */
function firstText(record: Json, fields: readonly string[]): { field: string; value: string } | undefined {
  for (const field of fields) {
    const value = record[field];
    const direct = text(value);
    if (direct !== undefined) return { field, value: direct };
    if (isRecord(value)) {
      const inner = text(value.name) ?? text(value.email);
      if (inner !== undefined) return { field: `${field}.${text(value.name) !== undefined ? 'name' : 'email'}`, value: inner };
    }
  }
  return undefined;
}

function idAsText(record: Json): Json {
  return typeof record.id === 'number' ? { ...record, id: String(record.id) } : record;
}

/** Keys that may stand beside an envelope without being part of the record. */
const ENVELOPE_COMPANIONS = new Set(['meta', 'links', '_links', 'status', 'success', 'ok', 'message', 'object', 'request_id', 'requestId']);

/**
 * One record, out of an envelope when the service wraps it: `{ data: { id, … } }` → `{ id, … }`. A body
 * with every `required` field (default: an `id`) is the record itself; so is a body whose other keys carry
 * data (`{ user: {…}, plan: {…} }` is one record, not a wrapped user).
 */
export function unwrapRecord(body: unknown, required: readonly string[] = []): { record: unknown; envelope?: string } {
  if (!isRecord(body)) return { record: body };
  const complete = (candidate: Json) => (required.length > 0 ? required.every((key) => key in candidate) : 'id' in candidate);
  if (complete(body)) return { record: body };
  for (const key of ENVELOPES) {
    const inner = body[key];
    if (!isRecord(inner) || !complete(inner)) continue;
    if (Object.keys(body).every((other) => other === key || ENVELOPE_COMPANIONS.has(other))) return { record: inner, envelope: key };
  }
  return { record: body };
}

/** A numeric id becomes text; anything else is kept as it is. */
export function normalizeRecord<T>(item: unknown): T {
  if (!isRecord(item)) return item as T;
  if (typeof item.id === 'number') return { ...item, id: String(item.id) } as T;
  return item as T;
}

/** A domain record with `hostname` filled in; `field` says where the service keeps it. */
export function normalizeDomain(item: unknown): { domain: Domain; field?: string } {
  if (!isRecord(item)) return { domain: item as Domain };
  const record = idAsText(item);
  const found = firstText(record, HOSTNAME_FIELDS);
  if (!found) return { domain: record as Domain };
  if (found.field === 'hostname') return { domain: record as Domain, field: 'hostname' };
  return { domain: { ...record, hostname: found.value } as Domain, field: found.field };
}

export interface AccountRead {
  account: Account;
  /** Where the service keeps the name, the e-mail and the record (undefined: not found / not wrapped). */
  nameField?: string;
  emailField?: string;
  envelope?: string;
}

/** The account record (GET /me) with `name` and `email` filled in from the service's own names. */
export function readAccount(body: unknown): AccountRead {
  const { record, envelope } = unwrapRecord(body);
  if (!isRecord(record)) return { account: record as Account };
  let account = idAsText(record);
  // Some services answer with the person and the plan side by side: { user: { name, email }, plan: … }.
  const person = isRecord(account.user) ? account.user : undefined;
  const pick = (fields: readonly string[]) => {
    const own = firstText(account, fields);
    if (own || !person) return own;
    const inner = firstText(person, fields);
    return inner && { field: `user.${inner.field}`, value: inner.value };
  };
  const name = pick(NAME_FIELDS);
  const email = pick(EMAIL_FIELDS);
  if (name && text(account.name) === undefined) account = { ...account, name: name.value };
  if (email && text(account.email) === undefined) account = { ...account, email: email.value };
  const read: AccountRead = { account: account as Account };
  if (name) read.nameField = name.field;
  if (email) read.emailField = email.field;
  if (envelope !== undefined) read.envelope = envelope;
  return read;
}

/** The twelve fields of a full link (components.schemas.Link). */
export const FULL_LINK_FIELDS = ['id', 'slug', 'shortUrl', 'targetUrl', 'title', 'domain', 'active', 'blocked', 'hasPassword', 'clicks', 'expiresAt', 'createdAt'] as const;

/**
 * The answer to an update: the whole link, a part of it (only the changed fields), or nothing (204, an
 * empty or non-JSON body). `fields` is what it held, ids as text.
 */
export function readUpdateAnswer(body: unknown): { kind: 'full link' | 'partial link' | 'empty'; fields?: Json } {
  const { record } = unwrapRecord(body, ['id']);
  if (!isRecord(record) || Object.keys(record).length === 0) return { kind: 'empty' };
  const fields = idAsText(record);
  return { kind: FULL_LINK_FIELDS.every((field) => field in fields) ? 'full link' : 'partial link', fields };
}

/**
 * One record of an answer (a link, statistics, the account), wrapped or not ({ data: { id, … } } is read
 * the same); an answer without the required fields is an UnexpectedResponseError naming what is missing.
 */
export function readObjectBody<T>(response: TransportResponse, what: string, required: readonly string[]): T {
  const body = unwrapRecord(response.body, required).record;
  if (!isRecord(body)) throw unexpectedBody(response, what);
  const missing = required.filter((key) => !(key in body));
  if (missing.length > 0) {
    throw unexpectedBody(response, what, `the answer lacks ${missing.join(', ')}.`);
  }
  return normalizeRecord<T>(body);
}
