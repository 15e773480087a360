import type { Operation } from '../operation';

/** The account's domains as the service lists them (the default domain is not one of them). */
export const getDomains: Operation = {
  key: 'domain.getAll',
  resource: 'domain',
  action: 'getAll',
  label: 'Get Many',
  description: 'Lists the custom domains of the account and whether each is verified. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [],
  output: {
    count: 'many',
    fields: [
      { key: 'id', label: 'Domain ID', type: 'string' },
      { key: 'hostname', label: 'Hostname', type: 'string' },
      { key: 'verified', label: 'Verified', type: 'boolean' },
      { key: 'createdAt', label: 'Created At', type: 'datetime' },
    ],
  },
  sample: { records: [{ id: '7', hostname: 'go.example.org', verified: true, createdAt: '2026-01-15T08:00:00.000Z' }] },
  async run(client) {
    return { records: (await client.listDomains()).map((domain) => ({ ...domain })) };
  },
};
