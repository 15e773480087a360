import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { NotFoundError, type Link } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { linkIdField, resolveLinkId } from '../fields/linkIdInput';

/**
 * Idempotent: a link that is already gone (deleted by an earlier run of the same Zap, or by hand) is a
 * success with alreadyDeleted true, not an error (errors count towards Zapier turning a Zap off). The link
 * is read first so that the step can hand on its Short URL, Target URL and Title; the API answers a
 * deletion without them.
 */
async function perform(z: ZObject, bundle: Bundle) {
  let id: string;
  try {
    id = await resolveLinkId(z, bundle);
  } catch (error) {
    // A short URL that no link of the account has any more (the whole account was searched): gone already.
    if (error instanceof NotFoundError) return deleted(null, { shortUrl: String(bundle.inputData.id) } as Link, true);
    throw error;
  }
  const client = clientFor(z, bundle);
  let link: Link;
  try {
    link = await client.getLink(id);
  } catch (error) {
    if (error instanceof NotFoundError) return deleted(id, undefined, true);
    throw error;
  }
  try {
    await client.deleteLink(id);
  } catch (error) {
    if (error instanceof NotFoundError) return deleted(id, link, true); // gone in between
    throw error;
  }
  return deleted(id, link, false);
}

function deleted(id: string | null, link: Partial<Link> | undefined, alreadyDeleted: boolean) {
  return {
    shortUrl: link?.shortUrl ?? null,
    id,
    targetUrl: link?.targetUrl ?? null,
    title: link?.title ?? null,
    deleted: true,
    alreadyDeleted,
  };
}

export const deleteLink = defineCreate({
  key: 'delete_link',
  noun: 'Link',
  display: {
    label: 'Delete Link',
    description: 'Deletes a short link for good: its short URL stops redirecting.',
  },
  operation: {
    perform,
    inputFields: [
      {
        key: 'deleteWarning',
        type: 'copy',
        helpText: '**This cannot be undone.** The short URL stops redirecting at once. A link that is already gone counts as deleted (Already Deleted: true).',
      },
      linkIdField,
    ],
    sample: deleted('1042', { shortUrl: 'https://go.example.org/spring-sale', targetUrl: 'https://example.org/spring-sale', title: 'Spring sale' } as Link, false),
    outputFields: [
      { key: 'shortUrl', label: 'Short URL', type: 'string' },
      { key: 'id', label: 'Link ID', type: 'string' },
      { key: 'targetUrl', label: 'Target URL', type: 'string' },
      { key: 'title', label: 'Title', type: 'string' },
      { key: 'deleted', label: 'Deleted', type: 'boolean' },
      { key: 'alreadyDeleted', label: 'Already Deleted', type: 'boolean' },
    ],
  },
});
