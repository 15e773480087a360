/** The tolerant page reader: every list shape, every cursor place. */
import nock from 'nock';
import { UnexpectedResponseError, createClient, readDomains, readLinkPage } from '../src/index';
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
    ['next as a URL', { data: [a, b], next: 'https://short.example.com/api/v1/links?limit=2&cursor=c7' }, 'c7'],
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
    [[a], null],
    [{ links: [a], pagination: { next: 'p' } }, 'p'],
  ])('%j', async (body, cursor) => {
    const clock = fakeClock();
    offContract(api(), 'list shapes of other services: the page reader tolerates them').get('/links').reply(200, body as never);
    const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, sleep: clock.sleep, now: clock.now });
    expect(await client.listLinks()).toEqual({ links: [a], nextCursor: cursor });
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
