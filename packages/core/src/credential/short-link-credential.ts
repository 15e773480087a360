/**
 * The one definition of the short-link credential. The n8n credential class and Zapier's authentication
 * are both built from it, so labels, help texts and the auth header agree. Both hosts test a connection
 * through the core's getAccount (GET /me), so that the test applies the same Base URL rules as every call.
 */
import { apiUrlFor } from '../http/base-url';
import { UTM_PRESETS_LABEL } from '../forms/utm-rules';
import type { Account } from '../types';

export interface CredentialField {
  label: string;
  help: string;
  required: boolean;
  secret?: true;
  /** Several lines of text (a text area). */
  multiline?: true;
  placeholder?: string;
}

export const shortLinkCredential = {
  name: 'shortLinkApi',
  displayName: 'Short Link API',
  // The n8n package README's section on this credential (on the repository named in the root package.json;
  // test/release/links.test.ts checks that the file and the heading exist).
  documentationUrl:
    'https://github.com/shortlink-integrations/shortlink-integrations/blob/main/packages/n8n-nodes-shortlink/README.md#credentials',
  fields: {
    apiKey: {
      label: 'API Key',
      secret: true,
      required: true,
      help:
        'Create a key in the short-link dashboard, section "API". The key is shown once only, so copy it right away; ' +
        'the service keeps only a hash. API access needs the business plan or higher.',
    },
    // No default and no example host: the service's public address is not documented anywhere we could check,
    // so the user enters the one their provider gives them (the README's "Credentials" section says the same).
    baseUrl: {
      label: 'Base URL',
      required: true,
      help:
        'Address of your short-link service without /api/v1, as your provider gives it; there is no default. ' +
        'Must use https; plain http is accepted only for a service on this machine (localhost, 127.0.0.1), such as the sandbox.',
    },
    // Kept with the connection, not in each workflow or Zap: every step on the account then tags alike, which
    // is the point of presets (forms/utm-rules.ts has the format and the rules).
    utmPresets: {
      label: UTM_PRESETS_LABEL,
      required: false,
      multiline: true,
      placeholder: 'Newsletter: source=newsletter, medium=email',
      help:
        'Optional: your team\'s UTM presets and rules, one a line, used by every step on this account. A preset: "Newsletter: source=newsletter, medium=email" (then pick "Newsletter" as UTM Preset). ' +
        'Allowed values: "allowed medium: email, cpc, social, qr" refuses any other medium before anything is sent. Source, medium and campaign are stored in lower case with "_" between words; "separator: -" uses "-" instead, "normalise: off" keeps values as typed.',
    },
  },

  /** The header every request carries. */
  authorizationHeader(apiKey: string): { Authorization: string } {
    return { Authorization: `Bearer ${apiKey.trim()}` };
  },

  /** How a connected account is labelled in the hosts: its name or email, never the key. */
  connectionLabel(account: Account): string {
    const record = (account ?? {}) as Partial<Account>;
    const name = typeof record.name === 'string' ? record.name.trim() : '';
    const email = typeof record.email === 'string' ? record.email.trim() : '';
    if (name && email) return `${name} (${email})`;
    return name || email || 'Short Link account';
  },

  /** Normalised base URL + '/api/v1' (trailing slash and an included /api/v1 tolerated; https except loopback). */
  apiUrl(baseUrl: string): string {
    return apiUrlFor(baseUrl);
  },
} as const satisfies {
  name: string;
  displayName: string;
  documentationUrl: string;
  fields: { apiKey: CredentialField & { secret: true; required: true }; baseUrl: CredentialField & { required: true }; utmPresets: CredentialField };
  authorizationHeader(apiKey: string): { Authorization: string };
  connectionLabel(account: Account): string;
  apiUrl(baseUrl: string): string;
};

export type ShortLinkCredential = typeof shortLinkCredential;
