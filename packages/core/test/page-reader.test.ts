/** The tolerant page reader: every list shape, every cursor place. */
import nock from 'nock';
import { UnexpectedResponseError, createClient } from '../src/index';
import { readDomains, readLinkPage } from '../src/reading/page-reader';
import { API_KEY, BASE_URL, fakeClock, link } from './helpers';
import { api, offContract } from './nock-api';

const a = link({ id: '2' });
const b = link({ id: '1' });

describe('readLinkPage', () => {
  test.each([
    ['the document shape', { data: [a, b], nextCursor: 'c1' }, 'c1'],
    ['data, last page', { data: [a, b], nextCursor: null }, null],
    ['items + next_cursor', { items: [a, b], next_cursor: 'c2' }, 'c2'],
    ['links + next', { links: [a, b], next: 'c3' }, 'c3'],
    ['links + cursor', { links: [a, b], cursor: 'c4' }, 'c4'],
    ['bare array', [a, b], null],
    ['pagination object', { data: [a, b], pagination: { nextCursor: 'c5' } }, 'c5'],
    ['meta object with next_cursor', { items: [a, b], meta: { next_cursor: 'c6' } }, 'c6'],
    ['meta object with hasMore false', { items: [a, b], meta: { next_cursor: 'stale', hasMore: false } }, null],
    ['next as a URL', { data: [a, b], next: 'https://short.example.com/api/v1/links?limit=2&cursor=c7' }, 'https://short.example.com/api/v1/links?limit=2&cursor=c7'],
    ['nested cursor object', { data: [a, b], cursor: { next: 'c9' } }, 'c9'],
    ['JSON:API links object', { data: [a, b], links: { self: '/api/v1/links', next: '/api/v1/links?page=2' } }, '/api/v1/links?page=2'],
    ['JSON:API links, last page', { data: [a, b], links: { self: '/api/v1/links', next: null } }, null],
    ['HAL _links', { items: [a, b], _links: { next: { href: 'https://short.example.com/api/v1/links?p=2' } } }, 'https://short.example.com/api/v1/links?p=2'],
    ['has_more without a cursor: after the last id', { object: 'list', data: [a, b], has_more: true }, '1'],
    ['Slack-style response_metadata', { items: [a, b], response_metadata: { next_cursor: 's1' } }, 's1'],
    ['GraphQL-style pageInfo', { items: [a, b], pageInfo: { hasNextPage: true, endCursor: 'g1' } }, 'g1'],
    ['GraphQL-style pageInfo, last page', { items: [a, b], pageInfo: { hasNextPage: false, endCursor: 'g1' } }, null],
    ['numeric cursor', { data: [a, b], nextCursor: 3 }, '3'],
    ['empty-string cursor', { data: [a, b], nextCursor: '' }, null],
    ['has_more false', { results: [a, b], has_more: false }, null],
    ['nested data.items', { data: { items: [a, b] }, meta: { cursor: 'c8' } }, 'c8'],
  ])('%s', (_name, body, cursor) => {
    const page = readLinkPage(body);
    expect(page?.links.map((l) => l.id)).toEqual(['2', '1']);
    expect(page?.nextCursor).toBe(cursor);
  });

  test('numeric ids become strings; unknown fields are kept', () => {
    const page = readLinkPage({ data: [{ ...a, id: 77, tags: ['x'] }], nextCursor: null });
    expect(page?.links[0]).toEqual({ ...a, id: '77', tags: ['x'] });
  });

  test('the document shape wins over other cursor fields', () => {
    expect(readLinkPage({ data: [a], nextCursor: null, next: 'zzz' })?.nextCursor).toBeNull();
  });

  test.each([
    ['bare numbers', [1, 2, 3], 3],
    ['bare strings', ['a'], 1],
    ['document shape with numbers', { data: [a, 7], nextCursor: null }, 1],
    ['items of nulls', { items: [null, null] }, 2],
    ['links of arrays', { links: [[a]] }, 1],
  ])('a list of non-objects (%s) is an UnexpectedResponseError, not links', (_name, body, wrong) => {
    expect(() => readLinkPage(body, 200)).toThrow(UnexpectedResponseError);
    expect(() => readLinkPage(body, 200)).toThrow(`(200 OK) where a list of records was expected: the list holds ${wrong} `);
  });

  test('domains: a list of non-objects is refused too; empty lists stay valid', () => {
    expect(() => readDomains(['short.example.com'], 200)).toThrow(/the list holds 1 entry that is not an object/);
    expect(readDomains([], 200)).toEqual([]);
    expect(readLinkPage([], 200)).toEqual({ links: [], nextCursor: null });
    expect(readLinkPage({ data: [], nextCursor: null }, 200)).toEqual({ links: [], nextCursor: null });
  });

  test('no list → undefined', () => {
    expect(readLinkPage({ hello: 1 })).toBeUndefined();
    expect(readLinkPage('<html>')).toBeUndefined();
    expect(readLinkPage(undefined)).toBeUndefined();
  });
});

describe('list shapes through the client (nock)', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  test.each([
    [{ items: [{ ...a, id: 2 }], next_cursor: 'n' }, 'n'],
    [{ links: [a], pagination: { next: 'p' } }, 'p'],
  ])('%j: the next page is asked for with the service cursor', async (body, cursor) => {
    const clock = fakeClock();
    const scope = offContract(api(), 'list shapes of other services: the page reader tolerates them');
    scope.get('/links').query({ limit: '1' }).reply(200, body as never);
    scope.get('/links').query({ limit: '1', cursor }).reply(200, { items: [b], next_cursor: null });
    const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, sleep: clock.sleep, now: clock.now });
    const first = await client.listLinks({ limit: 1 });
    expect(first.links).toEqual([a]);
    expect(await client.listLinks({ limit: 1, cursor: first.nextCursor! })).toEqual({ links: [b], nextCursor: null });
    expect(nock.isDone()).toBe(true);
  });

  test('a short bare array page without a Link header: the served document is asked once, then it is the last page', async () => {
    const clock = fakeClock();
    const scope = offContract(api(), 'a bare array, as other services answer; no OpenAPI document served');
    scope.get('/links').query({ limit: '5' }).times(2).reply(200, [a]);
    // Was the page size read at all? Only the service's document can say; it is read once per client.
    scope.get('/openapi.json').reply(404, { title: 'Not found', status: 404 });
    const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, sleep: clock.sleep, now: clock.now });
    expect(await client.listLinks({ limit: 5 })).toEqual({ links: [a], nextCursor: null });
    expect(await client.listLinks({ limit: 5 })).toEqual({ links: [a], nextCursor: null });
    expect(nock.isDone()).toBe(true);
    expect(client.serviceProfile().openApiDocument).toBe('not served (404 Not Found)');
  });
});

describe('list answers of non-objects through the client (nock)', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  const client = () => {
    const clock = fakeClock();
    return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, sleep: clock.sleep, now: clock.now });
  };

  test('listLinks on [1,2,3] names the status and the entries', async () => {
    offContract(api(), 'deliberately malformed: a list of numbers').get('/links').reply(200, [1, 2, 3]);
    const error = await client().listLinks().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/200 OK.*the list holds 3 entries that are not objects/);
  });

  test('findLinks on ["a"] is an error, not "nothing found"', async () => {
    offContract(api(), 'deliberately malformed: a list of strings').get('/links').query(true).reply(200, ['a']);
    await expect(client().findLinks({ targetUrl: 'https://example.org/x' })).rejects.toThrow(/the list holds 1 entry that is not an object/);
  });

  test('listDomains on [1] is an error', async () => {
    offContract(api(), 'deliberately malformed: a list of numbers').get('/domains').reply(200, [1]);
    await expect(client().listDomains()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
