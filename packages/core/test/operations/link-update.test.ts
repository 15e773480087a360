import { operationByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const update = operationByKey('link.update');
const bench = operationBench();

async function freshLink(targetUrl = 'https://example.org/up?ref=x') {
  return bench.client.createLink({ targetUrl, title: 'Up', password: 'secret12', expiresAt: '2031-01-01T00:00:00Z' });
}

describe('link.update', () => {
  test('UTM fields alone apply to the current target (read first)', async () => {
    const link = await freshLink();
    const { records } = await bench.run(update, { link: link.id, utmSource: 'ads', utmMedium: 'cpc' });
    expect(records[0]).toMatchObject({ id: link.id, targetUrl: 'https://example.org/up?ref=x&utm_source=ads&utm_medium=cpc' });
  });

  test('a new target without a scheme gets https:// and the UTM fields', async () => {
    const link = await freshLink();
    const { records } = await bench.run(update, { link: link.shortUrl, targetUrl: 'example.org/new', utmCampaign: 'c' });
    expect(records[0]!.targetUrl).toBe('https://example.org/new?utm_campaign=c');
  });

  test('Remove switches clear title, expiry and password; Active pauses', async () => {
    const link = await freshLink();
    const { records } = await bench.run(update, { link: link.id, removeTitle: true, removeExpiry: 'yes', removePassword: true, active: false });
    expect(records[0]).toMatchObject({ title: '', expiresAt: null, hasPassword: false, active: false });
  });

  test('expiry in the time zone; an empty Active leaves it as it is', async () => {
    const link = await freshLink();
    const { records } = await bench.run(update, { link: link.id, expiresAt: '2032-01-01 09:00', active: '' }, { timeZone: 'America/New_York' });
    expect(records[0]).toMatchObject({ expiresAt: '2032-01-01T14:00:00.000Z', active: true });
  });

  test('a value with its Remove switch, an empty form, a bad slug: refused before anything is sent', async () => {
    expect((await bench.refused(update, { link: '1', title: 'x', removeTitle: true })).message).toBe(
      'Both "Title" and "Remove Title" are set: enter a new value or turn on "Remove Title", not both.',
    );
    expect((await bench.refused(update, { link: '1' })).message).toMatch(/^Nothing to update/);
    expect((await bench.refused(update, { link: '1', slug: 'ü' })).message).toMatch(/^Slug may contain/);
    expect((await bench.refused(update, { link: 'abc', title: 'x' })).message).toMatch(/^"Link" must be a link's ID/);
  });

  test('an unknown short URL names the Link field', async () => {
    await expect(bench.run(update, { link: 'https://sho.rt/never-made', title: 'x' })).rejects.toThrow(/No link of this account has the short URL .*\("Link"\)/);
  });
});
