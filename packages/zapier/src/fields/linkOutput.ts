/** Output fields and the sample of a link record (the core's linkRecord: the twelve fields, short URL first). */
import { linkRecord } from '@shortlink/core/portable';

type OutputField = { key: string; label: string; type?: 'string' | 'integer' | 'boolean' | 'datetime' | 'number' };

export const linkOutputFields: OutputField[] = [
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'id', label: 'Link ID', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string' },
  { key: 'clicks', label: 'Total Clicks', type: 'integer' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'blocked', label: 'Blocked', type: 'boolean' },
  { key: 'hasPassword', label: 'Has Password', type: 'boolean' },
  { key: 'expiresAt', label: 'Expires At', type: 'datetime' },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
];

export const linkSample = linkRecord({
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

/** Line-item fields of a list of links under `key`, labelled "Short URL (Links)". */
export function linkLineItemFields(key: string, list: string): OutputField[] {
  return linkOutputFields.map((field) => ({ ...field, key: `${key}[]${field.key}`, label: `${field.label} (${list})` }));
}
