/**
 * The rows of the variant table (docs/api-contract.md, "Where the service may differ"): one spec-legal
 * choice of the service per row, the project's own document first. Every row runs the same five
 * operations (list all, find, find-or-create, update, the New Link trigger) in every client; rows about
 * records, statuses or deletes add the operation that shows them. Where no client can be sure of the
 * answer, the row expects each paging operation to stop with a message saying why, and nothing changed.
 */
import type { VariantChoices } from './variant-service';

export type Operation =
  | 'list all'
  | 'find'
  | 'find-or-create'
  | 'update'
  | 'trigger'
  | 'delete'
  | 'domain picker'
  | 'connection label'
  | 'wrong key'
  | 'plan without API access';

export interface VariantCase {
  id: string;
  /** What the service chose, for the table. */
  label: string;
  choices: VariantChoices;
  /** Operations besides the five every row runs. */
  extra?: Operation[];
  /** Operations expected to stop loudly, with a message matching the pattern (and change nothing). */
  fails?: { operations: Operation[]; message: RegExp; says: string };
}

export const CORE_OPERATIONS: Operation[] = ['list all', 'find', 'find-or-create', 'update', 'trigger'];
const PAGING: Operation[] = ['list all', 'find', 'find-or-create', 'trigger'];

export const VARIANT_CASES: VariantCase[] = [
  { id: 'baseline', label: 'Baseline: the project\'s document (`{ data, nextCursor }`, `limit`/`cursor`, 100 a page, PATCH 200 with the link, DELETE 204, `hostname`, `name`/`email`, 401, 403)', choices: {}, extra: ['delete', 'domain picker', 'connection label', 'wrong key', 'plan without API access'] },
  { id: 'nested-cursor', label: 'Cursor in a nested object: `{ data, cursor: { next } }`', choices: { paging: 'nested-cursor' } },
  { id: 'next-url', label: 'Next-page URL in the body: `{ data, links: { self, next: "http://…/api/v1/links?…" } }`', choices: { paging: 'next-url' } },
  { id: 'link-header', label: 'Bare array with an RFC 8288 header `Link: </api/v1/links?…>; rel="next"` (relative target)', choices: { paging: 'link-header' } },
  { id: 'has-more', label: '`{ object: "list", data, has_more }`, next page by `starting_after=<last id>`', choices: { paging: 'has-more' } },
  { id: 'page-token', label: 'Cursor parameter `page_token` (`cursor` ignored: the first page again); the served OpenAPI document names it', choices: { cursorParameter: 'page_token', openApi: 'served' } },
  { id: 'per-page', label: 'Page-size parameter `per_page` (`limit` ignored: 20 a page); the served OpenAPI document names it', choices: { pageSizeParameter: 'per_page', openApi: 'served' } },
  { id: 'max-50-detail', label: 'Largest page 50; `limit=100` → 422 "limit must be at most 50."', choices: { maxPageSize: 50, pageSizeRefusal: 'names-maximum', openApi: 'absent' } },
  { id: 'max-40-document', label: 'Largest page 40; 422 "limit is out of range."; the served OpenAPI document has `maximum: 40`', choices: { maxPageSize: 40, pageSizeRefusal: 'vague', openApi: 'served' } },
  { id: 'max-30-halving', label: 'Largest page 30; 422 "limit is out of range."; no OpenAPI document (404): halving 100 → 50 → 25', choices: { maxPageSize: 30, pageSizeRefusal: 'vague', openApi: 'absent' } },
  { id: 'link-header-max-50-page-token', label: 'All at once: Link header, largest page 50 (422 names it), cursor parameter `page_token` in the URLs', choices: { paging: 'link-header', maxPageSize: 50, cursorParameter: 'page_token', openApi: 'absent' } },
  { id: 'update-partial', label: 'PATCH answers only the changed fields `{ id, title }`', choices: { update: 'partial' } },
  { id: 'update-empty', label: 'PATCH answers 204 without a body', choices: { update: 'empty' } },
  { id: 'delete-200', label: 'DELETE answers 200 `{ id, deleted: true }`', choices: { deleteStatus: 200 }, extra: ['delete'] },
  { id: 'delete-202', label: 'DELETE answers 202 without a body', choices: { deleteStatus: 202 }, extra: ['delete'] },
  { id: 'domain-field', label: 'Domain records name the hostname `domain`', choices: { domainHostnameField: 'domain' }, extra: ['domain picker'] },
  { id: 'name-field', label: 'Domain records name the hostname `name`', choices: { domainHostnameField: 'name' }, extra: ['domain picker'] },
  { id: 'account-wrapped', label: 'Account record wrapped: `{ data: { id, name, email, … } }`', choices: { account: 'wrapped' }, extra: ['connection label'] },
  { id: 'account-renamed', label: 'Account record with `displayName`, `emailAddress`', choices: { account: 'renamed' }, extra: ['connection label'] },
  { id: 'statuses', label: 'A wrong key → 403 "Invalid API key."; a plan without API access → 402', choices: { wrongKeyStatus: 403, planStatus: 402 }, extra: ['wrong key', 'plan without API access'] },
  {
    id: 'page-token-no-document',
    label: 'Cursor parameter `page_token` and no OpenAPI document (404): the name cannot be learned',
    choices: { cursorParameter: 'page_token', openApi: 'absent' },
    fails: { operations: PAGING, message: /first page again/, says: '"…answered the request for the next page with the first page again…"' },
  },
  {
    id: 'no-continuation',
    label: 'Bare array, no Link header, nothing else: a full page cannot be told from the last one',
    choices: { paging: 'no-continuation', openApi: 'absent' },
    fails: { operations: PAGING, message: /full page \(\d+ links, page size \d+\) without saying whether more follow/, says: '"…sent a full page (100 links, page size 100) without saying whether more follow…"' },
  },
  {
    id: 'foreign-next-url',
    label: 'Next-page URL on another host (`links.next: "http://127.0.0.1:<other port>/api/v1/links?…"`)',
    choices: { paging: 'foreign-next-url' },
    fails: { operations: PAGING, message: /is not on the service .*The API key is sent only to the service/, says: '"The next page\'s address, …, is not on the service (…). The API key is sent only to the service…"; the other host receives nothing' },
  },
];

export function operationsOf(variant: VariantCase): Operation[] {
  return [...CORE_OPERATIONS, ...(variant.extra ?? [])];
}
