/** link.get and link.getAll. */
import { LINK_RECORD_FIELDS, operationByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const get = operationByKey('link.get');
const getAll = operationByKey('link.getAll');
const bench = operationBench();

describe('link.get', () => {
  test('by ID and by short URL give the same twelve-field record', async () => {
    const [seeded] = await bench.client.findLinks({ slug: 'spring-sale', domain: null });
    const byId = await bench.run(get, { link: seeded!.id });
    const byUrl = await bench.run(get, { link: seeded!.shortUrl });
    expect(Object.keys(byId.records[0]!)).toEqual([...LINK_RECORD_FIELDS]);
    expect(byUrl.records).toEqual(byId.records);
  });

  test('an unknown ID is the service\'s not found', async () => {
    await expect(bench.run(get, { link: '999999' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('bad Link values are refused by label, nothing sent', async () => {
    expect((await bench.refused(get, {})).message).toMatch(/"Link" is required/);
    expect((await bench.refused(get, { link: '12a' })).message).toMatch(/"Link" must be a link's ID/);
    expect((await bench.refused(get, { link: ['1', '2'] })).message).toMatch(/needs text/);
  });
});

describe('link.getAll', () => {
  test('newest first, up to Limit', async () => {
    for (let i = 0; i < 4; i++) await bench.client.createLink({ targetUrl: `https://example.org/all-${i}` });
    const { records } = await bench.run(getAll, { limit: 3 });
    expect(records.map((record) => record.targetUrl)).toEqual(['https://example.org/all-3', 'https://example.org/all-2', 'https://example.org/all-1']);
  });

  test('Return All reads every page', async () => {
    const all = await bench.run(getAll, { returnAll: true });
    expect(all.records.length).toBe((await bench.client.listLinks({ limit: 100 })).links.length);
    expect(all.records.length).toBeGreaterThanOrEqual(7);
  });

  test('the default limit is 50 and a limit of 1 sends one small page', async () => {
    const before = bench.sandbox.requests.length;
    expect((await bench.run(getAll, { limit: '1' })).records).toHaveLength(1);
    expect(bench.sandbox.requests.slice(before).map((request) => request.url)).toEqual(['/api/v1/links?limit=1']);
  });

  test('bad limits are refused by label, nothing sent', async () => {
    expect((await bench.refused(getAll, { limit: '0' })).message).toMatch(/"Limit" must be a whole number of at least 1/);
    expect((await bench.refused(getAll, { limit: 'ten' })).field).toBe('limit');
    expect((await bench.refused(getAll, { returnAll: 'perhaps' })).message).toMatch(/"Return All" must be yes or no/);
  });
});
