import { LINK_FIELD, readLinkId } from '../common-fields';
import { linkRecord } from '../link-record';
import type { Operation } from '../operation';

/** Get: one link by its ID or short URL, with its click count. */
export const getLink: Operation = {
  key: 'link.get',
  resource: 'link',
  action: 'get',
  label: 'Get',
  description: 'Reads one short link by its ID or short URL and returns its target, title, status and total clicks. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [LINK_FIELD],
  async run(client, form) {
    const id = await readLinkId(client, form);
    return { records: [linkRecord(await client.getLink(id))] };
  },
};
