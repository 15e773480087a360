/**
 * Public types: aliases of the components generated from openapi/short-link-api.yaml
 * (`npm run generate:types`), so the document stays the one truth.
 */
import type { components } from './generated/openapi';

type Schemas = components['schemas'];

/** The full link with all twelve fields (GET /links/{id}, PATCH, list pages). */
export type Link = Schemas['Link'];
/** The nine-field answer to a creation (blocked, hasPassword and expiresAt are omitted). */
export type LinkCreated = Schemas['LinkCreated'];
export type LinkStats = Schemas['LinkStats'];
export type CountedLabel = Schemas['CountedLabel'];
export type Domain = Schemas['Domain'];
export type Account = Schemas['Account'];
export type Plan = Schemas['Plan'];
export type Usage = Schemas['Usage'];
/** One page as the service sends it. */
export type LinkList = Schemas['LinkList'];
export type DomainList = Schemas['DomainList'];
export type Problem = Schemas['Problem'];
export type ValidationProblem = Schemas['ValidationProblem'];
export type CreateLinkInput = Schemas['CreateLinkRequest'];
export type UpdateLinkInput = Schemas['UpdateLinkRequest'];

/**
 * One page as the client returns it, whatever shape the service used. `nextCursor` is opaque (the client's
 * own token, docs/api-contract.md "Where the service may differ"): pass it back as `cursor` for the next
 * page; null means the service said this was the last one. When a full page said nothing about a next
 * one, `nextCursor` is set and following it fails loudly: more links may exist, but not where.
 */
export interface LinkPage {
  links: Link[];
  nextCursor: string | null;
}

export interface ListLinksOptions {
  /** Page size, 1 to 100 (service default 20). */
  limit?: number;
  /** The nextCursor of the previous page (or a cursor of the service's own). */
  cursor?: string;
}

export interface IterateLinksOptions {
  /** Page size, 1 to 100; default 100 (fewest requests). */
  pageSize?: number;
}

export interface FindLinksOptions {
  targetUrl?: string;
  slug?: string;
  /** Hostname of a custom domain; null = only links on the default domain; undefined = any domain. */
  domain?: string | null;
  /** Stop after this many matches; default 50 (link-index/lookups.ts DEFAULT_FIND_LIMIT, Find's Limit). */
  limit?: number;
  /** Only links that redirect (not paused, blocked or expired); default false. */
  activeOnly?: boolean;
}

export interface CampaignParameters {
  source?: string;
  medium?: string;
  campaign?: string;
  term?: string;
  content?: string;
}
