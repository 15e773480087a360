/** Output fields and samples of a link, shared by every operation that returns one. */

type OutputField = { key: string; label: string; type?: 'string' | 'integer' | 'boolean' | 'datetime' | 'number' };

/** The nine fields a creation answers with. */
export const createdLinkOutputFields: OutputField[] = [
  { key: 'id', label: 'ID', type: 'string' },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'clicks', label: 'Clicks', type: 'integer' },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
];

/** All twelve fields of a full link. */
export const linkOutputFields: OutputField[] = [
  ...createdLinkOutputFields,
  { key: 'blocked', label: 'Blocked', type: 'boolean' },
  { key: 'hasPassword', label: 'Has Password', type: 'boolean' },
  { key: 'expiresAt', label: 'Expires At', type: 'datetime' },
];

export const createdLinkSample = {
  id: '1042',
  slug: 'spring-sale',
  shortUrl: 'https://go.example.org/spring-sale',
  targetUrl: 'https://example.org/spring-sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  title: 'Spring sale',
  domain: 'go.example.org',
  active: true,
  clicks: 0,
  createdAt: '2026-03-01T09:30:00.000Z',
};

export const linkSample = {
  ...createdLinkSample,
  blocked: false,
  hasPassword: false,
  expiresAt: '2026-12-31T23:59:59.000Z',
};
