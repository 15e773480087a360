import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Account } from '@shortlink/core/portable';
import { shortLinkCredential } from '../../../credentials/shortLinkApi';
import { clientFor } from './client';

const { apiKey, baseUrl } = shortLinkCredential.fields;

/**
 * Custom auth built from the shared credential definition, so Zapier and n8n ask for the same fields
 * with the same help. The bearer header itself is added by middleware.ts.
 */
export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'apiKey',
      label: apiKey.label,
      type: 'password' as const,
      required: true,
      helpText: apiKey.help,
    },
    {
      key: 'baseUrl',
      label: baseUrl.label,
      type: 'string' as const,
      required: true,
      helpText: baseUrl.help,
    },
  ],
  /** GET /me through the core: proves the key, the plan (403 below business) and the base URL. */
  test: async (z: ZObject, bundle: Bundle): Promise<Account> => clientFor(z, bundle).getAccount(),
  /** bundle.inputData holds what test returned: the account. Name or email, never the key. */
  connectionLabel: async (_z: ZObject, bundle: Bundle): Promise<string> =>
    shortLinkCredential.connectionLabel(bundle.inputData as unknown as Account),
};
