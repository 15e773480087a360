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
  async run(client) {
    return { records: [{ ...(await client.getAccount()) }] };
  },
};
