/**
 * The link record every host shows: the twelve fields of a link (spec §3), the short URL first because it
 * is what people copy. Found, created or read, a link gives the same record, so a rerun gives the shape of
 * the first run.
 */
import type { Link } from '../types';
import type { OperationRecord } from './operation';
import type { OutputField } from './output';

type LinkOutputField = OutputField & { key: keyof Link };

/** The link record's fields as hosts label them, in the record's order. */
export const LINK_OUTPUT_FIELDS: readonly LinkOutputField[] = [
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'id', label: 'Link ID', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'title', label: 'Title', type: 'string', nullable: true },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string', nullable: true },
  { key: 'clicks', label: 'Total Clicks', type: 'integer' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'blocked', label: 'Blocked', type: 'boolean' },
  { key: 'hasPassword', label: 'Has Password', type: 'boolean' },
  { key: 'expiresAt', label: 'Expires At', type: 'datetime', nullable: true },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
];

export const LINK_RECORD_FIELDS: readonly (keyof Link)[] = LINK_OUTPUT_FIELDS.map((field) => field.key);

export function linkRecord(link: Link): OperationRecord {
  const record: OperationRecord = {};
  for (const key of LINK_RECORD_FIELDS) record[key] = link[key] ?? null;
  return record;
}

/** A link as samples show it (a spring campaign's newsletter link). */
export const LINK_SAMPLE: OperationRecord = linkRecord({
  id: '1042',
  slug: 'spring-sale',
  shortUrl: 'https://go.example.org/spring-sale',
  targetUrl: 'https://example.org/spring-sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  title: 'Spring sale',
  domain: 'go.example.org',
  active: true,
  blocked: false,
  hasPassword: false,
  clicks: 0,
  expiresAt: '2026-12-31T23:59:59.000Z',
  createdAt: '2026-03-01T09:30:00.000Z',
});
