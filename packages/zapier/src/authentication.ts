import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Account } from '@shortlink/core/portable';
import { shortLinkCredential } from '@shortlink/core/host';
import { clientFor } from './client';

const { apiKey, baseUrl, utmPresets } = shortLinkCredential.fields;

/** The README section that shows where the key is created (Zapier checks that the key's help links there). */
export const API_KEY_HELP_URL =
  'https://github.com/shortlink-integrations/shortlink-integrations/blob/main/packages/zapier/README.md#connect-your-account';

/**
 * Custom auth with the shared credential's fields (same labels as in n8n). The help texts are Zapier's own:
 * a link to where the key is found, and the Base URL as a Zapier user must enter it (https only; an address
 * on this machine only for local development, see baseUrl.ts). The bearer header is added by middleware.ts.
 *
 * Base URL is a required field without a default: the service's public address is not documented anywhere
 * we could check (packages/core/src/credential/short-link-credential.ts), and a placeholder host as default would connect nowhere.
 * Once the production address is known it becomes this field's default (or a hidden field), without
 * changing the key.
 */
export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'apiKey',
      label: apiKey.label,
      type: 'password' as const,
      required: true,
      helpText:
        'In your short-link dashboard, open the section **API** and create a key ([where to find it](' +
        API_KEY_HELP_URL +
        ')). The key is shown once only, so copy it right away. API access needs the business plan or higher.',
    },
    {
      key: 'baseUrl',
      label: baseUrl.label,
      type: 'string' as const,
      required: true,
      helpText:
        'The address of your short-link service as your provider gives it, starting with `https://` and without `/api/v1`, for example `https://short.example.com`.',
    },
    {
      // Kept with the connection: every Zap on the account tags with the same presets and rules.
      key: 'utmPresets',
      label: utmPresets.label,
      type: 'text' as const,
      required: false,
      placeholder: utmPresets.placeholder,
      helpText: utmPresets.help,
    },
  ],
  /** GET /me through the core: proves the key, the plan (403 below business) and the base URL. */
  test: async (z: ZObject, bundle: Bundle): Promise<Account> => clientFor(z, bundle).getAccount(),
  /** bundle.inputData holds what test returned: the account. Name or email, never the key. */
  connectionLabel: async (_z: ZObject, bundle: Bundle): Promise<string> =>
    shortLinkCredential.connectionLabel(bundle.inputData as unknown as Account),
};
