import { MAX_PAGE_SIZE } from '../../basics/page-size';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Operation } from '../operation';
import { getLinks } from './get-links';
import { findOrCreateMany, findOrCreateManyForAgents } from './find-or-create-many';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * Get Many one page at a time, for hosts that must never hand out an unbounded list (MCP tools: an agent's
 * context is small and a whole account can be millions of links). The answer carries a Continuation; passed
 * back, it gives the next page; empty means the last page was reached.
 */
export const getLinksPage: Operation = {
  key: getLinks.key,
  resource: 'link',
  action: getLinks.action,
  label: getLinks.label,
  description:
    'Lists the short links of the account, newest first, one page at a time.',
  returns: 'Returns the page and a Continuation for the next page (empty on the last page).',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [
    { key: 'pageSize', label: 'Page Size', kind: 'number', group: 'main', default: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE, help: 'Number of links on this page.' },
    {
      key: 'continuation',
      label: 'Continuation',
      kind: 'text',
      group: 'main',
      help: 'Empty for the first page; for the next page, the Continuation the previous page returned.',
    },
  ],
  output: {
    count: 'many',
    fields: LINK_OUTPUT_FIELDS,
    summary: [
      { key: 'continuation', label: 'Continuation', type: 'string' },
      { key: 'lastPage', label: 'Last Page', type: 'boolean' },
    ],
  },
  sample: { records: [LINK_SAMPLE], summary: { continuation: '', lastPage: true } },
  async run(client, form) {
    const cursor = form.text('continuation');
    const page = await client.listLinks({ limit: form.number('pageSize') ?? DEFAULT_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
    return { records: page.links.map(linkRecord), summary: { continuation: page.nextCursor ?? '', lastPage: page.nextCursor === null } };
  },
};

/**
 * Operations whose answer has no bound of its own, and the bounded form hosts with bounded answers (MCP)
 * use instead: a list one page at a time, a sheet at most MAX_AGENT_SHEET_ROWS rows a call.
 */
export const ONE_PAGE_FORMS: Readonly<Record<string, Operation>> = { [getLinks.key]: getLinksPage, [findOrCreateMany.key]: findOrCreateManyForAgents };
