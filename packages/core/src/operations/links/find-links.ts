import { DEFAULT_FIND_LIMIT } from '../../link-index/lookups';
import { InputError } from '../../errors';
import type { FormField } from '../../forms/form-fields';
import { DOMAIN_FIELD, readDomain, readSlug, readTarget, SLUG_FIELD, TARGET_URL_FIELD, UTM_FIELDS } from '../link-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Operation } from '../operation';

export const MAX_FIND_LIMIT = 1000;

export const INCLUDE_INACTIVE_FIELD: FormField = {
  key: 'includeInactive',
  label: 'Include Paused, Blocked or Expired Links',
  kind: 'boolean',
  group: 'options',
  default: false,
  help: 'Whether links that no longer work (paused, blocked or expired) are found too. Off: only links that work, as Find or Create reuses them.',
};

export const FIND_LIMIT_FIELD: FormField = {
  key: 'limit',
  label: 'Limit',
  kind: 'number',
  group: 'options',
  default: DEFAULT_FIND_LIMIT,
  min: 1,
  max: MAX_FIND_LIMIT,
  help: 'Max number of links to return.',
};

/**
 * Find: the links of a target URL (UTM fields applied, on the chosen domain — the default domain when
 * Domain is empty: the same link Find or Create would reuse) or of a slug on a domain. Links that no longer
 * work are left out unless Include Paused, Blocked or Expired Links is on. No match gives no record and a
 * summary { found: false, message } that hosts may show.
 */
export const findLinks: Operation = {
  key: 'link.find',
  resource: 'link',
  action: 'find',
  label: 'Find',
  description:
    'Finds the short links of a URL (with your UTM parameters) or of a slug on a domain, searching the whole account.',
  returns: 'Returns the links, or nothing when no link matches.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [
    { ...TARGET_URL_FIELD, required: false, help: 'The page the links lead to, e.g. https://example.org/spring-sale (query string included, in any order).' },
    { ...SLUG_FIELD, group: 'main', help: 'The end of the short URL, after the domain, e.g. spring-sale.' },
    DOMAIN_FIELD,
    ...UTM_FIELDS,
    INCLUDE_INACTIVE_FIELD,
    FIND_LIMIT_FIELD,
  ],
  output: {
    count: 'many',
    fields: LINK_OUTPUT_FIELDS,
    summary: [
      { key: 'found', label: 'Found', type: 'boolean' },
      // Only when nothing matched: what was looked for, and where.
      { key: 'message', label: 'Message', type: 'string', optional: true },
      { key: 'targetUrl', label: 'Target URL Searched For', type: 'string', nullable: true, optional: true },
      { key: 'slug', label: 'Slug Searched For', type: 'string', nullable: true, optional: true },
      { key: 'domain', label: 'Domain Searched', type: 'string', nullable: true, optional: true },
    ],
  },
  sample: { records: [LINK_SAMPLE], summary: { found: true } },
  async run(client, form, context) {
    const slug = readSlug(form);
    const targetUrl = form.text('targetUrl') === undefined ? undefined : readTarget(form, context);
    if (targetUrl === undefined && slug === undefined) {
      throw new InputError('targetUrl', `Enter a "${form.label('targetUrl')}" or a "${form.label('slug')}" to search for.`);
    }
    const domain = readDomain(form);
    const limit = form.number('limit') ?? DEFAULT_FIND_LIMIT;
    const links = await client.findLinks({ targetUrl, slug, domain, limit, activeOnly: !form.flag('includeInactive') });
    if (links.length > 0) return { records: links.map(linkRecord), summary: { found: true } };
    const where = domain === null ? 'the default domain' : `the domain ${domain}`;
    const what = [targetUrl && `the target URL ${targetUrl}`, slug && `the slug "${slug}"`].filter(Boolean).join(' and ');
    return { records: [], summary: { found: false, message: `No link with ${what} on ${where}.`, targetUrl: targetUrl ?? null, slug: slug ?? null, domain } };
  },
};
