import { shortLinkCredential } from '@shortlink/core/host';
import { InputError } from '@shortlink/core/portable';
import type { Account } from '@shortlink/core/portable';

const account: Account = {
  id: '1',
  name: 'Demo GmbH',
  email: 'demo@example.org',
  plan: { name: 'business', apiAccess: true, linkQuota: null },
  usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 0, clicks: 0 },
};

describe('shortLinkCredential', () => {
  test('names and fields follow the architecture', () => {
    expect(shortLinkCredential.name).toBe('shortLinkApi');
    expect(shortLinkCredential.displayName).toBe('Short Link API');
    expect(shortLinkCredential.fields.apiKey).toMatchObject({ label: 'API Key', secret: true, required: true });
    expect(shortLinkCredential.fields.baseUrl).toMatchObject({ label: 'Base URL', required: true });
    expect(shortLinkCredential.documentationUrl).toMatch(/^https:\/\//);
  });

  test('help texts say where the key comes from and what the base URL is', () => {
    const keyHelp = shortLinkCredential.fields.apiKey.help;
    expect(keyHelp).toContain('dashboard');
    expect(keyHelp).toContain('"API"');
    expect(keyHelp).toMatch(/shown once/);
    const urlHelp = shortLinkCredential.fields.baseUrl.help;
    expect(urlHelp).toContain('without /api/v1');
    expect(urlHelp).toMatch(/https/);
    expect(urlHelp).toMatch(/localhost|127\.0\.0\.1/);
  });

  test('authorizationHeader is a Bearer header', () => {
    expect(shortLinkCredential.authorizationHeader('sk_abc')).toEqual({ Authorization: 'Bearer sk_abc' });
    expect(shortLinkCredential.authorizationHeader('  sk_abc \n')).toEqual({ Authorization: 'Bearer sk_abc' });
  });

  test('connectionLabel uses name and email, never the key', () => {
    expect(shortLinkCredential.connectionLabel(account)).toBe('Demo GmbH (demo@example.org)');
    expect(shortLinkCredential.connectionLabel({ ...account, name: '' })).toBe('demo@example.org');
    expect(shortLinkCredential.connectionLabel({ ...account, email: '' })).toBe('Demo GmbH');
    expect(shortLinkCredential.connectionLabel({} as Account)).toBe('Short Link account');
  });

  test.each([
    ['https://short.example.com', 'https://short.example.com/api/v1'],
    ['https://short.example.com/', 'https://short.example.com/api/v1'],
    ['https://short.example.com/api/v1', 'https://short.example.com/api/v1'],
    ['https://short.example.com/api/v1/', 'https://short.example.com/api/v1'],
    ['  https://Short.Example.com:8443/prefix// ', 'https://short.example.com:8443/prefix/api/v1'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/api/v1'],
    ['http://localhost:3000/', 'http://localhost:3000/api/v1'],
    ['http://[::1]:3000', 'http://[::1]:3000/api/v1'],
  ])('apiUrl(%j) = %j', (input, expected) => {
    expect(shortLinkCredential.apiUrl(input)).toBe(expected);
  });

  test.each([
    ['', /baseUrl is required/],
    ['short.example.com', /absolute URL/],
    ['http://short.example.com', /must use https/],
    ['ftp://short.example.com', /https:\/\//],
    ['https://user:pw@short.example.com', /user name or password/],
  ])('apiUrl rejects %j', (input, message) => {
    let error: unknown;
    try {
      shortLinkCredential.apiUrl(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('baseUrl');
    expect((error as Error).message).toMatch(message);
  });
});
