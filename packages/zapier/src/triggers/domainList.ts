import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { operationByKey } from '@shortlink/core/operations';
import { clientFor } from '../client';
import { zapierOutputFields, zapierSample } from '../adapter/output-fields';

/** The domains as the core's Get Many Domains gives them: its output fields and sample. */
const domains = operationByKey('domain.getAll');

/** Hidden trigger that fills the Domain dropdown of the link steps with the verified custom domains. */
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
    sample: zapierSample(domains, { kind: 'list' }) as { id: string },
    outputFields: zapierOutputFields(domains, { kind: 'list' }),
  },
});
