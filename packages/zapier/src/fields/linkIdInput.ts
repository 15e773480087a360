import type { Bundle, ZObject } from 'zapier-platform-core';
import { NotFoundError } from '@shortlink/core/portable';
import { requiredString } from '../inputs';
import { withLinkIndex } from '../linkIndex';
import { linkChoices } from './linkChoices';

/**
 * The Link input shared by every operation on one link (Update, Delete, Link Stats; Find Link's ID field):
 * a dropdown of the links (linkChoices.ts), a mapped or pasted link ID, or a mapped or pasted short URL, and a search
 * connector to Find Link, so that a Zap can look the link up in a step of its own.
 */
export const linkIdField = {
  key: 'id',
  label: 'Link',
  type: 'string' as const,
  required: true,
  choices: linkChoices,
  search: 'find_link.id',
  helpText: 'The link to use: pick it, or map or paste its ID (for example `1042`) or its short URL (for example `https://sho.rt/spring-sale`).',
};

/** Whether the Link field holds a short URL rather than an ID. */
export function isShortUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/**
 * The ID the Link field names. A short URL is looked up in the connection's link index (the whole account,
 * across steps if it is large); "no such link" is said only after the whole account was searched.
 */
export async function resolveLinkId(z: ZObject, bundle: Bundle, key = 'id', label = 'Link'): Promise<string> {
  const value = requiredString(bundle.inputData, key, label);
  if (!isShortUrl(value)) return value;
  const link = await withLinkIndex(z, bundle, (client) => client.findLinkByShortUrl(value));
  if (!link) {
    throw new NotFoundError({
      title: 'Not found',
      status: 404,
      message: `${label}: no link of this account has the short URL ${value} (the whole account was searched). Check the URL, or pick the link from the list.`,
    });
  }
  return link.id;
}
