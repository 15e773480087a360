import { DEFAULT_READ_ALL_MAX_LINKS, DEFAULT_READ_ALL_TIME_LIMIT_MS } from '../../reading/read-all';
import type { Link } from '../../types';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Operation } from '../operation';

export const DEFAULT_LIST_LIMIT = 50;

/** Get Many: the account's links, newest first, up to Limit or all of them. */
export const getLinks: Operation = {
  key: 'link.getAll',
  resource: 'link',
  action: 'getAll',
  label: 'Get Many',
  description: 'Lists the short links of the account, newest first. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [
    {
      key: 'returnAll',
      label: 'Return All',
      kind: 'boolean',
      group: 'main',
      default: false,
      help: `Whether to return all links or only up to a given limit. All means at most ${DEFAULT_READ_ALL_MAX_LINKS.toLocaleString('en-US')} links, read within ${DEFAULT_READ_ALL_TIME_LIMIT_MS / 60_000} minutes: when either ends the reading first, the links read so far are returned with a note saying why.`,
    },
    { key: 'limit', label: 'Limit', kind: 'number', group: 'main', default: DEFAULT_LIST_LIMIT, min: 1, showWhen: { returnAll: [false] }, help: 'Max number of links to return.' },
  ],
  output: { count: 'many', fields: LINK_OUTPUT_FIELDS },
  sample: { records: [LINK_SAMPLE] },
  async run(client, form) {
    if (form.flag('returnAll')) {
      // One budget for the whole walk (links and time); a circle in the service's paging is an error.
      const all = await client.readAllLinks();
      const notices = all.stoppedEarly === undefined ? [] : [`Return All stopped early: ${all.stoppedEarly}. The ${all.links.length.toLocaleString('en-US')} newest links are returned.`];
      return { records: all.links.map(linkRecord), notices };
    }
    const limit = form.number('limit') ?? DEFAULT_LIST_LIMIT;
    const links: Link[] = [];
    // The core follows the pages until the limit (or the end) is reached: no page is read that is not needed.
    for await (const link of client.iterateLinks({ pageSize: Math.min(100, limit) })) {
      links.push(link);
      if (links.length >= limit) break;
    }
    return { records: links.map(linkRecord) };
  },
};
