/** domain.getAll, account.get and campaign.buildUrl. */
import { createClient } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { DEMO_DOMAIN, operationBench } from './sandbox-run';

const domains = operationByKey('domain.getAll');
const account = operationByKey('account.get');
const campaign = operationByKey('campaign.buildUrl');
const bench = operationBench();

describe('domain.getAll', () => {
  test('the verified custom domain of the account', async () => {
    const { records } = await bench.run(domains, {});
    expect(records).toEqual([expect.objectContaining({ hostname: DEMO_DOMAIN, verified: true })]);
  });

  test('an account without custom domains gives no record', async () => {
    const other = bench.sandbox.createAccount({ name: 'Other', email: 'o@example.com', plan: 'business' });
    const client = createClient({ baseUrl: bench.sandbox.baseUrl, apiKey: other.apiKey });
    expect((await runOperation(domains, client, {})).records).toEqual([]);
  });

  test('a wrong key is the service\'s authentication error', async () => {
    const client = createClient({ baseUrl: bench.sandbox.baseUrl, apiKey: 'sk_live_wrong_wrong_wrong_wrong' });
    await expect(runOperation(domains, client, {})).rejects.toMatchObject({ kind: 'authentication' });
  });

  test('unknown values are ignored: the form has no field', async () => {
    expect((await bench.run(domains, { anything: 'x' })).records).toHaveLength(1);
  });

  test('is read-only', () => {
    expect(domains.safety).toMatchObject({ readOnly: true, destructive: false });
  });
});

describe('account.get', () => {
  test('the account with plan and usage', async () => {
    const { records } = await bench.run(account, {});
    expect(records[0]).toMatchObject({ name: 'Demo Business', plan: expect.anything() });
  });

  test('a wrong key is refused by the service', async () => {
    const client = createClient({ baseUrl: bench.sandbox.baseUrl, apiKey: 'sk_live_wrong_wrong_wrong_wrong' });
    await expect(runOperation(account, client, {})).rejects.toMatchObject({ kind: 'authentication' });
  });
});

describe('campaign.buildUrl', () => {
  test('adds the UTM fields as Create stores them, sending nothing', async () => {
    const before = bench.sandbox.requests.length;
    const { records } = await bench.run(campaign, { targetUrl: 'https://example.org/p?utm_source=old#top', utmSource: 'new', utmTerm: 'running shoes' });
    expect(records).toEqual([{ url: 'https://example.org/p?utm_source=new&utm_term=running%20shoes#top' }]);
    expect(bench.sandbox.requests.length).toBe(before);
  });

  test('a URL without a scheme gets https://', async () => {
    expect((await bench.run(campaign, { targetUrl: 'example.org', utmMedium: 'email' })).records[0]).toEqual({ url: 'https://example.org/?utm_medium=email' });
  });

  test('without UTM fields the URL is returned as it is', async () => {
    expect((await bench.run(campaign, { targetUrl: 'https://example.org/a?b=1' })).records[0]).toEqual({ url: 'https://example.org/a?b=1' });
  });

  test('bad input is refused by label', async () => {
    expect((await bench.refused(campaign, {})).message).toMatch(/"Target URL" is required/);
    expect((await bench.refused(campaign, { targetUrl: 'mailto:a@example.org' })).message).toMatch(/^Target URL must be an absolute http/);
    expect((await bench.refused(campaign, { targetUrl: 'https://example.org', utmSource: { a: 1 } })).message).toMatch(/"UTM Source" needs text/);
  });

  test('is offline', () => {
    expect(campaign.safety.offline).toBe(true);
  });
});
