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
  async run(client) {
    return { records: (await client.listDomains()).map((domain) => ({ ...domain })) };
  },
};
