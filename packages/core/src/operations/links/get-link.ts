import { LINK_FIELD, readLinkId } from '../common-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
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
  output: { count: 'one', fields: LINK_OUTPUT_FIELDS },
  sample: { records: [LINK_SAMPLE] },
  async run(client, form) {
    const id = await readLinkId(client, form);
    return { records: [linkRecord(await client.getLink(id))] };
  },
};
