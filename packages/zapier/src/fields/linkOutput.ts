/** Output fields and samples of a link, shared by every operation that returns one. */
import type { Link, LinkCreated } from '@shortlink/core/portable';

type OutputField = { key: string; label: string; type?: 'string' | 'integer' | 'boolean' | 'datetime' | 'number' };

/**
 * The twelve fields of a full link, the ones users map most first: the Short URL (what a Zap passes on),
 * then what identifies and describes the link, then its state.
 */
export const linkOutputFields: OutputField[] = [
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'id', label: 'Link ID', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'blocked', label: 'Blocked', type: 'boolean' },
  { key: 'hasPassword', label: 'Has Password', type: 'boolean' },
  { key: 'expiresAt', label: 'Expires At', type: 'datetime' },
  { key: 'clicks', label: 'Clicks', type: 'integer' },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
];

/** A link as the app hands it to Zapier: the fields in the order above, then any the service added. */
export function linkForZapier<T extends Link | LinkCreated>(link: T): T {
  const ordered: Record<string, unknown> = {};
  for (const { key } of linkOutputFields) if (key in link) ordered[key] = (link as Record<string, unknown>)[key];
  return { ...ordered, ...link, ...ordered } as T;
}

export const linkSample = linkForZapier({
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
} satisfies Link);
