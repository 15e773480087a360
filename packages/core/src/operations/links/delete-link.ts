import { NotFoundError } from '../../errors';
import type { Link } from '../../types';
import { LINK_FIELD, readLinkId } from '../common-fields';
import type { Operation, OperationRecord } from '../operation';

function deleted(id: string | null, link: Partial<Link> | undefined, alreadyDeleted: boolean, shortUrl?: string): OperationRecord {
  return { shortUrl: link?.shortUrl ?? shortUrl ?? null, id, targetUrl: link?.targetUrl ?? null, title: link?.title ?? null, deleted: true, alreadyDeleted };
}

/**
 * Delete, idempotent: a link already gone (an earlier run, or by hand) is a success with alreadyDeleted
 * true, not an error, so a rerun does not fail. The link is read first so that the record can hand on its
 * short URL, target and title (the deletion answer has none).
 */
export const deleteLink: Operation = {
  key: 'link.delete',
  resource: 'link',
  action: 'delete',
  label: 'Delete',
  description: 'Deletes a short link for good: its short URL stops working. A link that is already gone is reported as such, not as an error.',
  safety: { readOnly: false, destructive: true, idempotent: true },
  output: {
    count: 'one',
    fields: [
      // Null when the link was already gone and the Link field named it by an ID or an unknown short URL.
      { key: 'shortUrl', label: 'Short URL', type: 'string', nullable: true },
      { key: 'id', label: 'Link ID', type: 'string', nullable: true },
      { key: 'targetUrl', label: 'Target URL', type: 'string', nullable: true },
      { key: 'title', label: 'Title', type: 'string', nullable: true },
      { key: 'deleted', label: 'Deleted', type: 'boolean' },
      { key: 'alreadyDeleted', label: 'Was Already Deleted', type: 'boolean' },
    ],
  },
  sample: {
    records: [{ shortUrl: 'https://go.example.org/spring-sale', id: '1042', targetUrl: 'https://example.org/spring-sale', title: 'Spring sale', deleted: true, alreadyDeleted: false }],
  },
  fields: [{ ...LINK_FIELD, help: 'The short link to delete: its ID (e.g. 1042) or its full short URL. Its short URL stops working for good.' }],
  async run(client, form) {
    let id: string;
    try {
      id = await readLinkId(client, form);
    } catch (error) {
      if (error instanceof NotFoundError) return { records: [deleted(null, undefined, true, form.text('link'))] };
      throw error;
    }
    let link: Link;
    try {
      link = await client.getLink(id);
    } catch (error) {
      if (error instanceof NotFoundError) return { records: [deleted(id, undefined, true)] };
      throw error;
    }
    try {
      await client.deleteLink(id);
    } catch (error) {
      if (error instanceof NotFoundError) return { records: [deleted(id, link, true)] }; // gone in between
      throw error;
    }
    return { records: [deleted(id, link, false)] };
  },
};
