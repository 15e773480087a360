import { operationByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const stats = operationByKey('stats.get');
const bench = operationBench();

async function seeded(slug = 'spring-sale') {
  const [link] = await bench.client.findLinks({ slug, domain: null });
  return link!;
}

describe('stats.get', () => {
  test('all in one record, with the short URL and title', async () => {
    const link = await seeded();
    const { records } = await bench.run(stats, { link: link.id });
    expect(records).toHaveLength(1);
    // The seed clicks spring-sale 0, 1 or 2 times a day over the last four weeks: 27 clicks.
    expect(records[0]).toMatchObject({ shortUrl: link.shortUrl, title: 'Spring sale', linkId: link.id, totalClicks: 27 });
  });

  test('one row per country, each naming the link', async () => {
    const link = await seeded();
    const { records } = await bench.run(stats, { link: link.shortUrl, splitInto: 'One Item per Country' });
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(Object.keys(record)).toEqual(['shortUrl', 'title', 'linkId', 'country', 'clicks']);
  });

  test('a link nobody clicked still gives a row per day when days without clicks are asked for', async () => {
    const link = await bench.client.createLink({ targetUrl: 'https://example.org/quiet', title: 'Quiet' });
    const { records } = await bench.run(stats, { link: link.id, splitInto: 'day', from: '2026-01-01', to: '2026-01-03', includeDaysWithoutClicks: true });
    expect(records).toEqual(['2026-01-01', '2026-01-02', '2026-01-03'].map((date) => ({ shortUrl: link.shortUrl, title: 'Quiet', linkId: link.id, date, clicks: 0 })));
  });

  test('per day, only days with clicks by default', async () => {
    const link = await seeded();
    const { records } = await bench.run(stats, { link: link.id, splitInto: 'day' });
    expect(records.reduce((sum, record) => sum + Number(record.clicks), 0)).toBe(27);
    expect(records.every((record) => Number(record.clicks) > 0)).toBe(true);
  });

  test('bad days and a bad Output are refused by label, nothing sent', async () => {
    expect((await bench.refused(stats, { link: '1', splitInto: 'day', from: '2026-13-01' })).message).toMatch(/^From must be a day/);
    expect((await bench.refused(stats, { link: '1', splitInto: 'day', from: '2026-02-01', to: '2026-01-01' })).field).toBe('from');
    expect((await bench.refused(stats, { link: '1', splitInto: 'weekly' })).message).toMatch(/"Output" must be one of/);
  });
});
