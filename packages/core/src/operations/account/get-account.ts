import type { Operation } from '../operation';

/** The account of the API key: name, plan and this billing period's usage. */
export const getAccount: Operation = {
  key: 'account.get',
  resource: 'account',
  action: 'get',
  label: 'Get',
  description: 'Reads the account of the API key with its plan and the usage of the current billing period. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [],
  output: {
    count: 'one',
    fields: [
      { key: 'id', label: 'Account ID', type: 'string' },
      { key: 'name', label: 'Account Name', type: 'string' },
      { key: 'email', label: 'Email', type: 'string' },
      {
        key: 'plan',
        label: 'Plan',
        type: 'object',
        fields: [
          { key: 'name', label: 'Plan Name', type: 'string' },
          { key: 'apiAccess', label: 'API Access', type: 'boolean' },
          { key: 'linkQuota', label: 'Links per Period', type: 'integer', nullable: true },
        ],
      },
      {
        key: 'usage',
        label: 'Usage',
        type: 'object',
        fields: [
          { key: 'periodStart', label: 'Period Start', type: 'datetime' },
          { key: 'periodEnd', label: 'Period End', type: 'datetime' },
          { key: 'links', label: 'Links Created in the Period', type: 'integer' },
          { key: 'clicks', label: 'Clicks in the Period', type: 'integer' },
        ],
      },
    ],
  },
  sample: {
    records: [
      {
        id: '1',
        name: 'Example Marketing',
        email: 'marketing@example.org',
        plan: { name: 'business', apiAccess: true, linkQuota: 10000 },
        usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 120, clicks: 5400 },
      },
    ],
  },
  async run(client) {
    return { records: [{ ...(await client.getAccount()) }] };
  },
};
