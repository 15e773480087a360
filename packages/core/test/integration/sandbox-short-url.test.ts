/** findLinkByShortUrl against the sandbox: the same slug on the default and on a custom domain. */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { InputError, createClient } from '@shortlink/core';
import type { ShortLinkClient } from '@shortlink/core';

let sandbox: Sandbox;
let client: ShortLinkClient;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
  client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
});
afterAll(async () => {
  await sandbox?.close();
});

test('resolves default-domain and custom-domain short URLs to their own link', async () => {
  const onDefault = await client.createLink({ targetUrl: 'https://example.org/twin-a', slug: 'twin' });
  const onCustom = await client.createLink({ targetUrl: 'https://example.org/twin-b', slug: 'twin', domain: 'go.example.org' });
  // Links created after the twins push them down the newest-first list: the scan must still reach them.
  for (let i = 0; i < 3; i++) await client.createLink({ targetUrl: `https://example.org/later-${i}` });
  expect(onDefault.domain).toBeNull();
  expect(onCustom.shortUrl).toBe('https://go.example.org/twin');

  expect((await client.findLinkByShortUrl(onDefault.shortUrl))?.id).toBe(onDefault.id);
  expect((await client.findLinkByShortUrl(onCustom.shortUrl))?.id).toBe(onCustom.id);
  expect((await client.findLinkByShortUrl('HTTP://GO.EXAMPLE.ORG/twin/'))?.id).toBe(onCustom.id);
  expect((await client.findLinkByShortUrl(`${sandbox.baseUrl.toUpperCase()}/twin/`))?.id).toBe(onDefault.id);

  const found = await client.findLinkByShortUrl(onCustom.shortUrl);
  expect(found).toMatchObject({ ...onCustom, blocked: false, hasPassword: false, expiresAt: null });
});

test('answers undefined for a short URL that no link of the account has', async () => {
  expect(await client.findLinkByShortUrl('https://go.example.org/no-such-slug')).toBeUndefined();
  // The seeded spring-sale lives on the default domain, not on the custom one.
  expect(await client.findLinkByShortUrl('https://go.example.org/spring-sale')).toBeUndefined();
  expect(await client.findLinkByShortUrl(`${sandbox.baseUrl}/spring-sale`)).toMatchObject({ slug: 'spring-sale', domain: null });
});

test('a URL without a slug is refused before any request', async () => {
  const before = sandbox.requests.length;
  await expect(client.findLinkByShortUrl(`${sandbox.baseUrl}/`)).rejects.toBeInstanceOf(InputError);
  expect(sandbox.requests.length).toBe(before);
});
