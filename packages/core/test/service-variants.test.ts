/**
 * The client against services that chose otherwise where the spec is silent (docs/api-contract.md, "Where
 * the service may differ"): every paging form, a refused page size, a cursor parameter under another name,
 * the served OpenAPI document, partial or empty update answers, other record field names, 402 and 403.
 * Request by request through nock; the same choices over real HTTP are in test/variants.
 */
import { AuthenticationError, ForbiddenError, UnexpectedResponseError, createClient, type Link } from '../src/index';
import { RECONNECT_ADVICE, UPGRADE_ADVICE, adviceFor } from '../src/faces/host';
import { describeServiceProfile } from '../src/reading/service-profile';
import { decodeContinuation, encodeContinuation } from '../src/reading/continuation';
import { nextLinkTarget, parseLinkHeader } from '../src/reading/link-header';
import { maximumNamedIn } from '../src/reading/link-pager';
import { listParametersFrom } from '../src/reading/served-openapi';
import { openApiDocument } from '@shortlink/sandbox';
import { ACCOUNT, api, offContract, useStrictNock } from './nock-api';
import { API, API_KEY, BASE_URL, fakeClock, link } from './helpers';

useStrictNock();

const client = () => {
  const clock = fakeClock();
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, sleep: clock.sleep, now: clock.now });
};

/** `count` links, newest first, ids from `top` down. */
const links = (top: number, count: number): Link[] => Array.from({ length: count }, (_, i) => link({ id: String(top - i), slug: `s${top - i}` }));
const ids = (list: Link[]) => list.map((l) => l.id);

/** A scope for a service that is not the project's document. */
const other = (reason: string) => offContract(api(), reason);

async function readAll(c: ReturnType<typeof client>, pageSize: number): Promise<string[]> {
  const seen: string[] = [];
  for await (const l of c.iterateLinks({ pageSize })) seen.push(l.id);
  return seen;
}

describe('paging forms', () => {
  test('a bare array with an RFC 8288 Link header: rel="next" followed (relative target), a Link without "next" ends', async () => {
    const scope = other('bare array pages with a Link header');
    scope.get('/links').query({ limit: '2' }).reply(200, links(4, 2), { Link: '</api/v1/links?page=2&per_page=2>; rel="next", </api/v1/links?per_page=2>; rel="first"' });
    scope.get('/links').query({ page: '2', per_page: '2' }).reply(200, links(2, 2), { Link: '</api/v1/links?per_page=2>; rel="first"' });
    const c = client();
    expect(await readAll(c, 2)).toEqual(['4', '3', '2', '1']);
    expect(c.serviceProfile().paging).toEqual({ form: 'Link header', where: 'Link header' });
  });

  test('a next-page URL in the body (links.next) is followed; null ends', async () => {
    const scope = other('JSON:API-style links object');
    scope.get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), links: { self: `${API}/links?limit=2`, next: `${API}/links?limit=2&after=x1` } });
    scope.get('/links').query({ limit: '2', after: 'x1' }).reply(200, { data: links(2, 1), links: { self: `${API}/links?limit=2&after=x1`, next: null } });
    const c = client();
    expect(await readAll(c, 2)).toEqual(['4', '3', '2']);
    expect(c.serviceProfile().paging).toEqual({ form: 'next URL', where: 'links.next' });
  });

  test('a nested cursor object (cursor: { next }) goes back in the cursor parameter', async () => {
    const scope = other('nested cursor object');
    scope.get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), cursor: { next: 'n2' } });
    scope.get('/links').query({ limit: '2', cursor: 'n2' }).reply(200, { data: links(2, 2), cursor: { next: null } });
    const c = client();
    expect(await readAll(c, 2)).toEqual(['4', '3', '2', '1']);
    expect(c.serviceProfile().paging).toEqual({ form: 'nested cursor', where: 'cursor.next' });
  });

  test('has_more without a cursor: the next page starts after the last id (starting_after)', async () => {
    const scope = other('Stripe-style list');
    scope.get('/links').query({ limit: '2' }).reply(200, { object: 'list', data: links(4, 2), has_more: true });
    scope.get('/links').query({ limit: '2', starting_after: '3' }).reply(200, { object: 'list', data: links(2, 1), has_more: false });
    expect(await readAll(client(), 2)).toEqual(['4', '3', '2']);
  });

  test('a next-page URL on another host: this page is handed out, following it is refused and nothing is sent there', async () => {
    other('next link on another host').get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), links: { next: 'https://elsewhere.example/api/v1/links?cursor=c2' } });
    const c = client();
    const first = await c.listLinks({ limit: 2 });
    expect(ids(first.links)).toEqual(['4', '3']);
    // nock refuses every unmatched host: a request there would fail differently (and useStrictNock checks pending).
    const error = await c.listLinks({ limit: 2, cursor: first.nextCursor! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/^The next page's address, https:\/\/elsewhere\.example\/api\/v1\/links\?cursor=c2, is not on the service \(https:\/\/short\.example\.com\/api\/v1\)\. The API key is sent only to the service/);
  });

  test('a next-page URL on the same host but outside the API (or with a user name) is refused too', async () => {
    const scope = other('next links outside the API root');
    scope.get('/links').query({ limit: '1' }).reply(200, { data: links(4, 1), next_url: '/admin/export?all=1' });
    scope.get('/links').query({ limit: '1' }).reply(200, { data: links(4, 1), links: { next: 'https://user:pw@short.example.com/api/v1/links?p=2' } });
    const c = client();
    for (let i = 0; i < 2; i++) {
      const first = await c.listLinks({ limit: 1 });
      await expect(c.listLinks({ limit: 1, cursor: first.nextCursor! })).rejects.toThrow(/is not on the service/);
    }
  });

  test('a full page without any sign of a next one is not the end: the page is served, going on fails loudly, naming what came back', async () => {
    other('bare array, no Link header').get('/links').query({ limit: '3' }).reply(200, links(9, 3));
    const c = client();
    // A caller that needs this page only (a sample, the newest links) gets it.
    const page = await c.listLinks({ limit: 3 });
    expect(ids(page.links)).toEqual(['9', '8', '7']);
    expect(page.nextCursor).toEqual(expect.any(String));
    // Going on: no request (there is nothing to ask), a loud error instead of "that was all".
    const error = await c.listLinks({ limit: 3, cursor: page.nextCursor! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toBe(
      'The service sent a full page (3 links, page size 3) without saying whether more follow: no cursor field, next-page URL or Link header was found in a bare array, no Link header. The list may go on, so it was not taken as complete.',
    );
  });

  test('findLinks and the trigger fail the same way instead of answering "none" or delivering a part', async () => {
    const scope = other('bare array, no Link header');
    scope.get('/links').query({ limit: '100' }).times(2).reply(200, links(500, 100));
    // The trigger's first poll names the account its state belongs to.
    scope.get('/me').reply(200, ACCOUNT);
    const c = client();
    await expect(c.findLinks({ targetUrl: 'https://example.org/not-here' })).rejects.toThrow(/full page \(100 links/);
    await expect(c.pollNewLinks(undefined)).rejects.toThrow(/full page \(100 links/);
  });

  test('the same continuation twice would never end: it fails loudly', async () => {
    const scope = other('a service that repeats its cursor');
    scope.get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), next_cursor: 'same' });
    scope.get('/links').query({ limit: '2', cursor: 'same' }).reply(200, { data: links(2, 2), next_cursor: 'same' });
    await expect(readAll(client(), 2)).rejects.toThrow(/same continuation again/);
  });
});

describe('page size the service refuses', () => {
  const refusal = (detail: string) => ({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail, errors: [{ field: 'limit', message: detail }] });

  test('the maximum named in the 422 is learned and kept for the client\'s life', async () => {
    const scope = other('a service whose largest page is 50');
    scope.get('/links').query({ limit: '100' }).reply(422, refusal('limit must be at most 50.'));
    scope.get('/links').query({ limit: '50' }).reply(200, { data: links(400, 50), nextCursor: 'c2' });
    scope.get('/links').query({ limit: '50', cursor: 'c2' }).reply(200, { data: links(350, 10), nextCursor: null });
    const c = client();
    expect(await readAll(c, 100)).toHaveLength(60);
    expect(c.serviceProfile()).toMatchObject({ maxPageSize: 50, maxPageSizeFrom: 'refusal detail', openApiDocument: 'not read' });
    // Remembered: the next call asks for 50 at once.
    scope.get('/links').query({ limit: '50' }).reply(200, { data: links(400, 1), nextCursor: null });
    expect(ids((await c.listLinks({ limit: 100 })).links)).toEqual(['400']);
  });

  test('a 422 that names no number: the maximum from the served OpenAPI document (read once)', async () => {
    const document = structuredClone(openApiDocument()) as { components: { parameters: { Limit: { schema: { maximum: number } } } } };
    document.components.parameters.Limit.schema.maximum = 30;
    const scope = other('a service whose largest page is 30, saying only "out of range"');
    scope.get('/links').query({ limit: '100' }).reply(422, refusal('limit is out of range.'));
    scope.get('/openapi.json').reply(200, document);
    scope.get('/links').query({ limit: '30' }).reply(200, { data: links(400, 30), nextCursor: null });
    const c = client();
    expect(await c.listLinks({ limit: 100 })).toMatchObject({ nextCursor: null });
    expect(c.serviceProfile()).toMatchObject({ maxPageSize: 30, maxPageSizeFrom: 'OpenAPI document', openApiDocument: 'served' });
  });

  test('no number and no document: halving until a page is accepted', async () => {
    const scope = other('a service whose largest page is 30, no document');
    scope.get('/links').query({ limit: '100' }).reply(422, refusal('limit is out of range.'));
    scope.get('/openapi.json').reply(404, { type: 'about:blank', title: 'Not Found', status: 404 });
    scope.get('/links').query({ limit: '50' }).reply(422, refusal('limit is out of range.'));
    scope.get('/links').query({ limit: '25' }).reply(200, { data: links(400, 5), nextCursor: null });
    const c = client();
    expect(ids((await c.listLinks({ limit: 100 })).links)).toHaveLength(5);
    expect(c.serviceProfile()).toMatchObject({ maxPageSize: 25, maxPageSizeFrom: 'halving', openApiDocument: 'not served (404 Not Found)' });
  });

  test('a 422 about something else (the cursor) is not taken for the page size', async () => {
    const detail = 'cursor is not a valid cursor; pass the nextCursor of a previous page.';
    api().get('/links').query({ limit: '100', cursor: 'bad' }).reply(422, {
      type: 'https://shortlink.example/docs/api/errors#validation-failed', title: 'Validation failed', status: 422, detail, errors: [{ field: 'cursor', message: detail }],
    }, { 'Content-Type': 'application/problem+json' });
    await expect(client().listLinks({ limit: 100, cursor: 'bad' })).rejects.toThrow(`Validation failed: ${detail}`);
  });

  test.each([
    ['limit must be at most 50.', 100, 50],
    ['limit must be <= 25', 100, 25],
    ['per_page must be between 1 and 40', 100, 40],
    ['page size must be less than 51', 100, 50],
    ['Maximum page size is 75', 100, 75],
    ['limit must be 1-60', 100, 60],
    ['limit is out of range.', 100, undefined],
    ['limit must be at most 100', 100, undefined],
  ])('the maximum in "%s" (sent %d) is %s', (text, sent, expected) => {
    expect(maximumNamedIn(text, sent)).toBe(expected);
  });
});

describe('the cursor parameter under another name', () => {
  const renamed = (cursorName: string) => {
    const document = structuredClone(openApiDocument()) as { servers: unknown; components: { parameters: { Cursor: { name: string } } } };
    document.components.parameters.Cursor.name = cursorName;
    // A served document that names another server: requests must still go to the base URL.
    document.servers = [{ url: 'https://elsewhere.example/api/v1' }];
    return document;
  };

  test('the first page again → the name from the served document, then the right page; no link twice', async () => {
    const scope = other('a service that reads page_token');
    scope.get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), nextCursor: 't2' });
    scope.get('/links').query({ limit: '2', cursor: 't2' }).reply(200, { data: links(4, 2), nextCursor: 't2' });
    scope.get('/openapi.json').reply(200, renamed('page_token'));
    scope.get('/links').query({ limit: '2', page_token: 't2' }).reply(200, { data: links(2, 2), nextCursor: null });
    const c = client();
    expect(await readAll(c, 2)).toEqual(['4', '3', '2', '1']);
    expect(c.serviceProfile()).toMatchObject({ cursorParameter: 'page_token', openApiDocument: 'served' });
  });

  test('a later client (a dropdown\'s next invocation, the next poll) sees it too: the token carries the list\'s first id', async () => {
    const scope = other('a service that reads page_token');
    scope.get('/links').query({ limit: '2' }).reply(200, { data: links(4, 2), nextCursor: 't2' });
    const { nextCursor } = await client().listLinks({ limit: 2 });
    scope.get('/links').query({ limit: '2', cursor: 't2' }).reply(200, { data: links(4, 2), nextCursor: 't2' });
    scope.get('/openapi.json').reply(404, { type: 'about:blank', title: 'Not Found', status: 404 });
    const error = await client().listLinks({ limit: 2, cursor: nextCursor! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toBe(
      'The service answered the request for the next page with the first page again (link 4, the first of the list, came back): it does not read the cursor parameter "cursor". Its OpenAPI document (/api/v1/openapi.json) could not tell the right name: not served (404 Not Found). The list was not read further, so that no link is counted twice.',
    );
  });

  test('a new client per page (a dropdown loaded page by page): each learns the name, the third page is not the first again', async () => {
    const scope = other('a service that reads page_token, asked by a new client for every page');
    const first = { data: links(6, 2), nextCursor: 't2' };
    scope.get('/links').query({ limit: '2' }).reply(200, first);
    const page1 = await client().listLinks({ limit: 2 });
    for (const [sent, page, next] of [['t2', links(4, 2), 't3'], ['t3', links(2, 2), null]] as const) {
      // A fresh client sends `cursor`, gets the first page (plus a link created meanwhile), learns page_token.
      scope.get('/links').query({ limit: '2', cursor: sent }).reply(200, { data: [link({ id: '7' }), ...links(6, 1)], nextCursor: 't2' });
      scope.get('/openapi.json').reply(200, renamed('page_token'));
      scope.get('/links').query({ limit: '2', page_token: sent }).reply(200, { data: page, nextCursor: next });
    }
    const page2 = await client().listLinks({ limit: 2, cursor: page1.nextCursor! });
    expect(ids(page2.links)).toEqual(['4', '3']);
    const page3 = await client().listLinks({ limit: 2, cursor: page2.nextCursor! });
    expect(page3).toEqual({ links: links(2, 2), nextCursor: null });
  });
});

describe('update answers', () => {
  const full = link({ title: 'New' });

  test('only the changed fields: the link is read again and handed out whole', async () => {
    const scope = other('PATCH answered with the changed fields only');
    scope.patch('/links/1042', { title: 'New' }).reply(200, { id: '1042', title: 'New' });
    scope.get('/links/1042').reply(200, full);
    const c = client();
    expect(await c.updateLink('1042', { title: 'New' })).toEqual(full);
    expect(c.serviceProfile()).toMatchObject({ updateAnswer: 'partial link', updateStatus: 200 });
  });

  test('204 without a body: read again', async () => {
    const scope = other('PATCH answered 204');
    scope.patch('/links/1042').reply(204);
    scope.get('/links/1042').reply(200, full);
    const c = client();
    expect(await c.updateLink('1042', { title: 'New' })).toEqual(full);
    expect(c.serviceProfile()).toMatchObject({ updateAnswer: 'empty', updateStatus: 204 });
  });

  test('the whole link in an envelope: no second request', async () => {
    other('PATCH answered with { data: link }').patch('/links/1042').reply(200, { data: full });
    expect(await client().updateLink('1042', { title: 'New' })).toEqual(full);
  });

  test('the read after an empty answer fails: the message says the update was applied', async () => {
    const scope = other('PATCH answered 204, then the read fails');
    scope.patch('/links/1042').reply(204);
    scope.get('/links/1042').reply(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No link with id 1042 exists.' });
    await expect(client().updateLink('1042', { title: 'New' })).rejects.toThrow(
      'The update was applied (the service answered 204 No Content), but reading the link afterwards failed: Not Found: No link with id 1042 exists.',
    );
  });

  test.each([200, 202])('delete answered %d counts as deleted', async (status) => {
    other('DELETE answered otherwise than 204').delete('/links/7').reply(status, status === 200 ? { id: '7', deleted: true } : '');
    const c = client();
    await expect(c.deleteLink('7')).resolves.toBeUndefined();
    expect(c.serviceProfile().deleteStatus).toBe(status);
  });
});

describe('record shapes', () => {
  test.each(['domain', 'name', 'host'])('domain records with the hostname under "%s" get hostname', async (field) => {
    other('domain records named otherwise').get('/domains').reply(200, { data: [{ id: 7, [field]: 'go.example.org', verified: true }] });
    const c = client();
    expect(await c.listDomains()).toEqual([{ id: '7', [field]: 'go.example.org', hostname: 'go.example.org', verified: true }]);
    expect(c.serviceProfile().domainHostnameField).toBe(field);
  });

  test('an account in an envelope, or with other names, gets name and email', async () => {
    const scope = other('account records named otherwise');
    scope.get('/me').reply(200, { data: ACCOUNT });
    scope.get('/me').reply(200, { id: '1', displayName: 'Demo', emailAddress: 'demo@example.org', plan: 'business' });
    scope.get('/me').reply(200, { user: { id: 'u1', username: 'demo', email: 'demo@example.org' }, plan: { name: 'business' } });
    const c = client();
    expect(await c.getAccount()).toEqual(ACCOUNT);
    expect(c.serviceProfile().accountEnvelope).toBe('data');
    expect(await c.getAccount()).toMatchObject({ id: '1', name: 'Demo', email: 'demo@example.org', displayName: 'Demo' });
    expect(c.serviceProfile()).toMatchObject({ accountNameField: 'displayName', accountEmailField: 'emailAddress' });
    expect(await c.getAccount()).toMatchObject({ name: 'demo', email: 'demo@example.org' });
  });
});

describe('402 and 403', () => {
  test('403 for a key the service does not accept is an AuthenticationError (reconnect)', async () => {
    other('a wrong key answered 403').get('/me').reply(403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Invalid API key.' });
    const error = await client().getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 403, message: 'Forbidden: Invalid API key.' });
    expect(adviceFor(error)).toBe(RECONNECT_ADVICE);
  });

  test('402 for a plan without API access is a ForbiddenError with the plan reason (upgrade)', async () => {
    other('a plan without API access answered 402').get('/me').reply(402, { type: 'about:blank', title: 'Payment Required', status: 402, detail: 'Your subscription does not include API access.' });
    const error = await client().getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 402, reason: 'plan' });
    expect(adviceFor(error)).toBe(UPGRADE_ADVICE);
  });

  test('a 403 about the plan or a domain stays a ForbiddenError', async () => {
    const scope = other('403 with words only');
    scope.get('/me').reply(403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Your API key is on a plan without API access.' });
    scope.post('/links').reply(403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'The domain go.example.net is not verified for this key.' });
    const c = client();
    await expect(c.getAccount()).rejects.toMatchObject({ kind: 'forbidden', reason: 'plan' });
    await expect(c.createLink({ targetUrl: 'https://example.org/x' })).rejects.toMatchObject({ kind: 'forbidden', reason: 'domain' });
  });
});

describe('the pieces', () => {
  test('tokens: a continuation and its first id survive the round trip; other text is the service cursor', () => {
    for (const token of [
      { next: { kind: 'cursor' as const, value: 'eyJhIjoxfQ==' }, top: '1042' },
      { next: { kind: 'url' as const, url: 'https://short.example.com/api/v1/links?page=2&ä=ö' } },
      { next: { kind: 'after' as const, id: 'lnk_9' }, top: 'lnk_10' },
    ]) {
      const text = encodeContinuation(token);
      expect(text).toMatch(/^sl1\.[A-Za-z0-9_-]+$/);
      expect(decodeContinuation(text)).toEqual(token);
    }
    expect(decodeContinuation('WyIyMDI2LTAzLTAxIiwiMTIiXQ')).toEqual({ next: { kind: 'cursor', value: 'WyIyMDI2LTAzLTAxIiwiMTIiXQ' } });
    expect(decodeContinuation('sl1.!!')).toEqual({ next: { kind: 'cursor', value: 'sl1.!!' } });
  });

  test('Link header: several links, quoted and bare rel, several rel values, commas inside quotes', () => {
    const header = '<https://a.example/p?x=1,2>; rel="prev first"; title="a, b", </p3>; rel=next';
    expect(parseLinkHeader(header)).toEqual([
      { target: 'https://a.example/p?x=1,2', rels: ['prev', 'first'] },
      { target: '/p3', rels: ['next'] },
    ]);
    expect(nextLinkTarget(header)).toBe('/p3');
    expect(nextLinkTarget('<https://a.example/p1>; rel="first"')).toBeNull();
    expect(nextLinkTarget(undefined)).toBeUndefined();
    expect(nextLinkTarget('garbage')).toBeUndefined();
  });

  test('the served document gives parameter names and page-size limits, nothing else', () => {
    expect(listParametersFrom(openApiDocument())).toEqual({ cursor: 'cursor', pageSize: 'limit', maxPageSize: 100, defaultPageSize: 20 });
    const stripe = {
      openapi: '3.1.0',
      servers: [{ url: 'https://elsewhere.example' }],
      paths: {
        '/v1/links': {
          get: {
            parameters: [
              { name: 'starting_after', in: 'query', schema: { type: 'string' } },
              { name: 'ending_before', in: 'query', schema: { type: 'string' } },
              { $ref: '#/components/parameters/PerPage' },
              { name: 'Authorization', in: 'header', schema: { type: 'string' } },
            ],
          },
        },
      },
      components: { parameters: { PerPage: { name: 'per_page', in: 'query', schema: { type: 'integer', exclusiveMaximum: 51 } } } },
    };
    expect(listParametersFrom(stripe)).toEqual({ cursor: 'starting_after', after: 'starting_after', pageSize: 'per_page', maxPageSize: 50 });
    expect(listParametersFrom({ openapi: '3.1.0', paths: { '/me': { get: {} } } })).toBeUndefined();
    expect(listParametersFrom('openapi: 3.1.0')).toBeUndefined();
  });

  test('the profile is one line to send back', async () => {
    const scope = other('Link header pages');
    scope.get('/links').query({ limit: '1' }).reply(200, links(4, 1), { Link: '</api/v1/links?page=2>; rel="next"' });
    const c = client();
    await c.listLinks({ limit: 1 });
    expect(describeServiceProfile(c.serviceProfile())).toBe(
      'paging=Link header (Link header); cursor parameter=cursor; page size parameter=limit; max page size=(not seen); openapi.json=not read; update answer=(not seen); delete answer=(not seen); domain hostname field=(not seen); account name field=(not seen)',
    );
  });
});
