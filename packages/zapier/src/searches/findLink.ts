import { defineSearch, type Bundle, type ZObject } from 'zapier-platform-core';
import { InputError, NotFoundError } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalString } from '../inputs';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** How many matches a search hands back; Zapier uses the first, and later steps rarely want more. */
const MAX_RESULTS = 10;

async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  const client = clientFor(z, bundle);
  const id = optionalString(input, 'id');
  if (id !== undefined) {
    try {
      return [await client.getLink(id)];
    } catch (error) {
      if (error instanceof NotFoundError) return []; // "not found" is a normal search answer
      throw error;
    }
  }
  const shortUrl = optionalString(input, 'shortUrl');
  if (shortUrl !== undefined) {
    // The short URL names at most one link; the core applies the domain rules (its host is the domain).
    const link = await client.findLinkByShortUrl(shortUrl);
    return link ? [link] : [];
  }
  const targetUrl = optionalString(input, 'targetUrl');
  const slug = optionalString(input, 'slug');
  if (targetUrl === undefined && slug === undefined) {
    throw new InputError('id', 'Find Link needs one of: Link ID (id), Short URL (shortUrl), Target URL (targetUrl) or Slug (slug).');
  }
  return client.findLinks({ targetUrl, slug, domain: optionalString(input, 'domain'), limit: MAX_RESULTS });
}

export const findLink = defineSearch({
  key: 'find_link',
  noun: 'Link',
  display: {
    label: 'Find Link',
    description: 'Finds a link by its ID, its short URL, its target URL or its slug.',
  },
  operation: {
    perform,
    inputFields: [
      { key: 'id', label: 'Link ID', type: 'string', required: false, helpText: 'Finds exactly this link. Takes precedence over the other fields.' },
      {
        key: 'shortUrl',
        label: 'Short URL',
        type: 'string',
        required: false,
        helpText: 'Finds the link with exactly this short URL, e.g. https://sho.rt/spring-sale (on the default or a custom domain). Takes precedence over Target URL, Slug and Domain.',
      },
      { key: 'targetUrl', label: 'Target URL', type: 'string', required: false, helpText: 'Finds links that redirect to exactly this URL.' },
      { key: 'slug', label: 'Slug', type: 'string', required: false, helpText: 'Finds the link with this slug.' },
      {
        key: 'domain',
        label: 'Domain',
        type: 'string',
        required: false,
        dynamic: 'domain_list.hostname.hostname',
        helpText: 'Only links on this custom domain (with Target URL or Slug).',
      },
    ],
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
