/**
 * What one client has learned about the service where the spec is silent (docs/api-contract.md, "Where
 * the service may differ"): the paging form, the list's parameter names, the largest page, whether the
 * OpenAPI document is served, the update and delete answers, the record field names. Learned from answers
 * as they come, kept for the client's life, and printed by `npm run check:live` as one line a user can
 * send back.
 */
import type { PagingForm } from './page-reader';

export type MaxPageSizeSource = 'refusal detail' | 'OpenAPI document' | 'halving';

export interface ServiceProfile {
  /** How the last page that said anything about a next page said it, and where (e.g. `cursor.next`). */
  paging?: { form: PagingForm; where: string };
  /** Query parameter names in use for the list. */
  cursorParameter: string;
  afterParameter: string;
  pageSizeParameter: string;
  /** Largest page the service accepts, once learned (undefined: none refused so far). */
  maxPageSize?: number;
  maxPageSizeFrom?: MaxPageSizeSource;
  /** The page size the service uses when none is sent, when its document says so. */
  defaultPageSize?: number;
  /** /api/v1/openapi.json: not read yet, served (and read), or why not. */
  openApiDocument: 'not read' | 'served' | 'served, names no link list' | `not served (${string})`;
  /** The answer to the last update: the whole link, part of it (the link was read again), or nothing. */
  updateAnswer?: 'full link' | 'partial link' | 'empty';
  updateStatus?: number;
  deleteStatus?: number;
  /** Where domain records keep the hostname (`hostname` in the document). */
  domainHostnameField?: string;
  /** Where the account record keeps the name and e-mail, and its envelope (`data`…) if any. */
  accountNameField?: string;
  accountEmailField?: string;
  accountEnvelope?: string;
}

export function newServiceProfile(): ServiceProfile {
  return { cursorParameter: 'cursor', afterParameter: 'starting_after', pageSizeParameter: 'limit', openApiDocument: 'not read' };
}

/**
 * One line: `key=value` pairs separated by "; ", the project's own choice where nothing was observed
 * marked as "(not seen)". Fields that hold service text are cut short; no key can be in them (the client
 * never puts it into a profile).
 */
export function describeServiceProfile(profile: ServiceProfile): string {
  const notSeen = '(not seen)';
  const clip = (text: string) => text.replace(/[;\n\r]/g, ' ').slice(0, 60);
  const parts = [
    `paging=${profile.paging ? `${profile.paging.form} (${clip(profile.paging.where)})` : notSeen}`,
    `cursor parameter=${clip(profile.cursorParameter)}`,
    `page size parameter=${clip(profile.pageSizeParameter)}`,
    `max page size=${profile.maxPageSize === undefined ? notSeen : `${profile.maxPageSize} (from ${profile.maxPageSizeFrom})`}`,
    `openapi.json=${profile.openApiDocument}`,
    `update answer=${profile.updateAnswer === undefined ? notSeen : `${profile.updateAnswer} (${profile.updateStatus})`}`,
    `delete answer=${profile.deleteStatus ?? notSeen}`,
    `domain hostname field=${profile.domainHostnameField === undefined ? notSeen : clip(profile.domainHostnameField)}`,
    `account name field=${profile.accountNameField === undefined ? notSeen : clip(profile.accountNameField)}${profile.accountEnvelope ? ` (in ${clip(profile.accountEnvelope)})` : ''}`,
  ];
  return parts.join('; ');
}
