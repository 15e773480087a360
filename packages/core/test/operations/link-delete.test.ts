import { operationByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const del = operationByKey('link.delete');
const bench = operationBench();

describe('link.delete', () => {
  test('deletes and hands on the short URL, target and title', async () => {
    const link = await bench.client.createLink({ targetUrl: 'https://example.org/bye', title: 'Bye' });
    const { records } = await bench.run(del, { link: link.id });
    expect(records).toEqual([{ shortUrl: link.shortUrl, id: link.id, targetUrl: link.targetUrl, title: 'Bye', deleted: true, alreadyDeleted: false }]);
  });

  test('a rerun is a success with alreadyDeleted true', async () => {
    const link = await bench.client.createLink({ targetUrl: 'https://example.org/bye2' });
    await bench.run(del, { link: link.id });
    expect((await bench.run(del, { link: link.id })).records[0]).toMatchObject({ id: link.id, deleted: true, alreadyDeleted: true });
  });

  test('by short URL; a short URL no link has is already deleted', async () => {
    const link = await bench.client.createLink({ targetUrl: 'https://example.org/bye3', slug: 'bye-three' });
    expect((await bench.run(del, { link: link.shortUrl })).records[0]).toMatchObject({ id: link.id, alreadyDeleted: false });
    expect((await bench.run(del, { link: link.shortUrl })).records[0]).toMatchObject({ id: null, shortUrl: link.shortUrl, alreadyDeleted: true });
  });

  test('an empty Link and a Link that is no ID nor URL are refused before anything is sent', async () => {
    expect((await bench.refused(del, { link: '' })).message).toMatch(/"Link" is required/);
    expect((await bench.refused(del, { link: 'spring sale' })).field).toBe('link');
  });

  test('a mapped object is refused', async () => {
    expect((await bench.refused(del, { link: { id: 1 } })).message).toMatch(/"Link" needs text/);
  });
});
