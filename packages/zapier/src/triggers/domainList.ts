import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { clientFor } from '../client';

/** Hidden trigger that fills the Domain dropdown of Create Link with the verified custom domains. */
async function perform(z: ZObject, bundle: Bundle) {
  return clientFor(z, bundle).listDomains();
}

export const domainList = defineTrigger({
  key: 'domain_list',
  noun: 'Domain',
  display: {
    label: 'List Domains',
    description: 'Lists the verified custom domains (powers the Domain dropdown).',
    hidden: true,
  },
  operation: {
    type: 'polling',
    perform,
    sample: { id: '7', hostname: 'go.example.org', verified: true, createdAt: '2026-01-15T08:00:00.000Z' },
    outputFields: [
      { key: 'id', label: 'ID', type: 'string' },
      { key: 'hostname', label: 'Hostname', type: 'string' },
      { key: 'verified', label: 'Verified', type: 'boolean' },
      { key: 'createdAt', label: 'Created At', type: 'datetime' },
    ],
  },
});
