/** Checks made before any request: InputError naming the field; nothing is sent. */
import fc from 'fast-check';
import { InputError, createClient } from '../src/portable';
import { linkPath } from '../src/forms/input-checks';
import type { ShortLinkClient, TransportRequest } from '../src/portable';
import { BASE_URL, fakeClock } from './helpers';

function recordingClient(): { client: ShortLinkClient; requests: TransportRequest[] } {
  const requests: TransportRequest[] = [];
  const clock = fakeClock();
  const client = createClient({
    baseUrl: BASE_URL,
    sleep: clock.sleep,
    now: clock.now,
    transport: async (request) => {
      requests.push(request);
      return { status: 200, headers: {}, body: { id: '1', data: [], nextCursor: null } };
    },
  });
  return { client, requests };
}

async function inputError(run: (client: ShortLinkClient) => Promise<unknown>): Promise<InputError> {
  const { client, requests } = recordingClient();
  const error = await run(client).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect(requests).toEqual([]);
  return error as InputError;
}

describe('input checks', () => {
  test.each([
    [{}, 'targetUrl', /targetUrl is required/],
    [{ targetUrl: '' }, 'targetUrl', /targetUrl is required/],
    [{ targetUrl: 'example.org/page' }, 'targetUrl', /absolute http\(s\) URL.*got "example\.org\/page"/],
    [{ targetUrl: 'javascript:alert(1)' }, 'targetUrl', /absolute http\(s\) URL/],
    [{ targetUrl: 'mailto:a@example.org' }, 'targetUrl', /absolute http\(s\) URL/],
    [{ targetUrl: 42 }, 'targetUrl', /must be a string/],
    [{ targetUrl: 'https://example.org', expiresAt: '2026-12-31T23:59:59' }, 'expiresAt', /time zone/],
    [{ targetUrl: 'https://example.org', expiresAt: '2026-12-31' }, 'expiresAt', /ISO 8601/],
    [{ targetUrl: 'https://example.org', expiresAt: '2026-02-30T10:00:00Z' }, 'expiresAt', /ISO 8601/],
    [{ targetUrl: 'https://example.org', expiresAt: 'tomorrow' }, 'expiresAt', /ISO 8601/],
  ])('createLink(%j) → %s', async (input, field, message) => {
    const error = await inputError((c) => c.createLink(input as never));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  test('createLink with a non-object names the input', async () => {
    expect((await inputError((c) => c.createLink(null as never))).field).toBe('input');
  });

  test.each([
    ['', 'id'],
    ['   ', 'id'],
    ['.', 'id'],
    ['..', 'id'],
    [undefined, 'id'],
    [{}, 'id'],
  ])('ids must be non-empty strings: %j', async (id, field) => {
    for (const run of [
      (c: ShortLinkClient) => c.getLink(id as never),
      (c: ShortLinkClient) => c.deleteLink(id as never),
      (c: ShortLinkClient) => c.getLinkStats(id as never),
      (c: ShortLinkClient) => c.updateLink(id as never, { title: 'x' }),
    ]) {
      const error = await inputError(run);
      expect(error.field).toBe(field);
      expect(error.message).toMatch(/^id must be/);
    }
  });

  test.each([0, 101, 2.5, -1, '10'])('limit %j must be 1..100', async (limit) => {
    const error = await inputError((c) => c.listLinks({ limit: limit as never }));
    expect(error.field).toBe('limit');
    expect(error.message).toMatch(/whole number from 1 to 100/);
  });

  test('pageSize of iterateLinks and pollNewLinks is checked too', async () => {
    expect((await inputError(async (c) => c.iterateLinks({ pageSize: 0 }))).field).toBe('pageSize');
    expect((await inputError((c) => c.pollNewLinks(undefined, { pageSize: 500 }))).field).toBe('pageSize');
    expect((await inputError((c) => c.pollNewLinks(undefined, { maxPages: 0 }))).field).toBe('maxPages');
  });

  test.each([{}, { title: undefined }])('update without fields: %j', async (patch) => {
    const error = await inputError((c) => c.updateLink('1', patch as never));
    expect(error.field).toBe('patch');
    expect(error.message).toMatch(/at least one field: targetUrl, slug, title, active, expiresAt, password/);
  });

  test('update checks targetUrl and expiresAt but lets null clear', async () => {
    expect((await inputError((c) => c.updateLink('1', { targetUrl: 'nope' }))).field).toBe('targetUrl');
    expect((await inputError((c) => c.updateLink('1', { expiresAt: '31.12.2026' }))).field).toBe('expiresAt');
    const { client, requests } = recordingClient();
    await client.updateLink('1', { expiresAt: null, password: null });
    expect(requests[0]!.body).toEqual({ expiresAt: null, password: null });
  });

  test('findLinks needs targetUrl or slug', async () => {
    expect((await inputError((c) => c.findLinks({}))).field).toBe('targetUrl');
    expect((await inputError((c) => c.findLinks({ targetUrl: 'x' }))).field).toBe('targetUrl');
  });

  test('a bad state for pollNewLinks is named', async () => {
    const error = await inputError((c) => c.pollNewLinks({ version: 2 } as never));
    expect(error.field).toBe('state');
  });

  test('createClient checks its options', () => {
    const clock = fakeClock();
    expect(() => createClient({ baseUrl: BASE_URL, sleep: clock.sleep } as never)).toThrow(/transport is required/);
    expect(() => createClient({ baseUrl: BASE_URL, transport: async () => ({ status: 200, headers: {}, body: {} }) } as never)).toThrow(
      /sleep is required/,
    );
    expect(() => createClient({ baseUrl: 'http://short.example.com', transport: async () => ({ status: 200, headers: {}, body: {} }), sleep: clock.sleep })).toThrow(
      /must use https/,
    );
  });

  test('the service checks the rest (slug characters reach the service)', async () => {
    const { client, requests } = recordingClient();
    await client.createLink({ targetUrl: 'https://example.org', slug: 'not a valid slug!' }).catch(() => undefined);
    expect(requests[0]!.body).toEqual({ targetUrl: 'https://example.org', slug: 'not a valid slug!' });
  });
});

describe('path encoding of ids', () => {
  test.each([
    ['1042', '/links/1042'],
    ['../me', '/links/..%2Fme'],
    ['1/stats', '/links/1%2Fstats'],
    ['%2F', '/links/%252F'],
    ['a?b#c', '/links/a%3Fb%23c'],
    ['...', '/links/...'],
  ])('%j → %s', (id, path) => {
    expect(linkPath(id)).toBe(path);
  });

  test('every id stays one segment under /links and decodes back (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }), async (id) => {
        fc.pre(id.trim() !== '' && id !== '.' && id !== '..');
        const { client, requests } = recordingClient();
        await client.getLinkStats(id).catch(() => undefined);
        const request = requests[0]!;
        const segments = request.path.split('/');
        expect(segments).toEqual(['', 'links', encodeURIComponent(id), 'stats']);
        expect(decodeURIComponent(segments[2]!)).toBe(id);
        // The URL as a server parses it keeps the same path: nothing climbs out of /links/<id>.
        const url = new URL(request.url);
        expect(url.pathname).toBe(`/api/v1/links/${encodeURIComponent(id)}/stats`);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
      { numRuns: 300 },
    );
  });
});

describe('link id length', () => {
  test('an id of 257 characters is refused before any request, naming id and the limit', async () => {
    const error = await inputError((c) => c.deleteLink('1'.repeat(257)));
    expect(error.field).toBe('id');
    expect(error.message).toMatch(/^id must be a link id of at most 256 characters; got 257 characters/);
    expect(error.message.length).toBeLessThan(200);
  });

  test('an id of 256 characters is still sent', async () => {
    const { client, requests } = recordingClient();
    await client.getLink('1'.repeat(256)).catch(() => undefined);
    expect(requests).toHaveLength(1);
  });
});
