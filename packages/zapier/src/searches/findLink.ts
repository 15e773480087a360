import { defineSearch, type Bundle, type ZObject } from 'zapier-platform-core';
import { InputError, NotFoundError } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalBoolean, optionalString } from '../inputs';
import { linkForZapier, linkOutputFields, linkSample } from '../fields/linkOutput';
import { isShortUrl, linkIdField } from '../fields/linkIdInput';
import { readUtm, utmInputFields, withUtm } from '../fields/utm';
import { withLinkIndex } from '../linkIndex';

/** The shared Link field without its search connector (a search does not point at itself). */
const { search: _search, ...linkField } = linkIdField;

/** How many matches a search hands back; Zapier uses the first, and later steps rarely want more. */
const MAX_RESULTS = 10;

/**
 * Find Link, also the search half of Find or Create Link. "The same link" is the core's
 * (docs/api-contract.md): the target URL with this step's UTM fields applied — exactly what Create Link
 * stores —, the domain (the default one when empty) and the slug when given; links that do not redirect
 * (paused, blocked, expired) only when asked. By target, slug or short URL the search goes through the
 * connection's link index (linkIndex.ts): "no link" only after the whole account, a retryable error while
 * a large account is still being read.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  const id = optionalString(input, 'id');
  if (id !== undefined && !isShortUrl(id)) {
    try {
      return [linkForZapier(await clientFor(z, bundle).getLink(id))];
    } catch (error) {
      if (error instanceof NotFoundError) return []; // "not found" is a normal search answer
      throw error;
    }
  }
  const shortUrl = id ?? optionalString(input, 'shortUrl');
  if (shortUrl !== undefined) {
    // The short URL names at most one link; the core applies the domain rules (its host is the domain).
    const link = await withLinkIndex(z, bundle, (client) => client.findLinkByShortUrl(shortUrl));
    return link ? [linkForZapier(link)] : [];
  }
  const rawTarget = optionalString(input, 'targetUrl');
  const slug = optionalString(input, 'slug');
  if (rawTarget === undefined && slug === undefined) {
    throw new InputError('id', 'Find Link needs one of: Link (an ID or a short URL), Short URL, Target URL or Slug.');
  }
  const targetUrl = rawTarget === undefined ? undefined : withUtm(rawTarget, readUtm(input));
  const activeOnly = !optionalBoolean(input, 'includeInactive', 'Include Inactive Links');
  const found = await withLinkIndex(z, bundle, (client) =>
    client.findLinks({ targetUrl, slug, domain: optionalString(input, 'domain') ?? null, limit: MAX_RESULTS, activeOnly }),
  );
  return found.map(linkForZapier);
}

export const findLink = defineSearch({
  key: 'find_link',
  noun: 'Link',
  display: {
    label: 'Find Link',
    description: 'Finds a link by its ID or short URL, or by its target URL (UTM fields applied) or slug, searching the whole account.',
  },
  operation: {
    perform,
    inputFields: [
      {
        ...linkField,
        required: false,
        helpText: 'Finds exactly this link: its ID (for example `1042`) or its short URL (for example `https://sho.rt/spring-sale`). Takes precedence over the other fields.',
      },
      {
        key: 'shortUrl',
        label: 'Short URL',
        type: 'string',
        required: false,
        helpText: 'Finds the link with exactly this short URL, for example `https://sho.rt/spring-sale` (on the default or a custom domain). Takes precedence over Target URL, Slug and Domain.',
      },
      {
        key: 'targetUrl',
        label: 'Target URL',
        type: 'string',
        required: false,
        helpText:
          'Finds links to this URL after the UTM fields below are added (as Create Link stores it). Host case, default port, the order of parameters and the case of %-escapes do not matter; `%2F` is not `/`. A link whose target was changed in the dashboard is found once the account is read again: "nothing found" (on which Find or Create creates) always rests on a reading of the account at most 10 minutes old, so only a target changed in those last minutes can be missed.',
      },
      ...utmInputFields('the Target URL before searching (use the same values as in Create Link)'),
      { key: 'slug', label: 'Slug', type: 'string', required: false, helpText: 'Finds the link with this slug.' },
      {
        key: 'domain',
        label: 'Domain',
        type: 'string',
        required: false,
        dynamic: 'domain_list.hostname.hostname',
        helpText: 'The custom domain of the link (with Target URL or Slug). Left empty: links on the default domain.',
      },
      {
        key: 'includeInactive',
        label: 'Include Inactive Links',
        type: 'boolean',
        required: false,
        default: 'false',
        helpText: 'With Target URL or Slug: also return links that do not redirect (paused, blocked or expired). Off (default), Find or Create makes a new link beside such a one.',
      },
    ],
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
