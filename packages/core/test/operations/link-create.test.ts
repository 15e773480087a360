import { LINK_RECORD_FIELDS, operationByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const create = operationByKey('link.create');
const bench = operationBench();

describe('link.create', () => {
  test('the record is the complete link, short URL first, UTM fields applied in marketing order', async () => {
    const { records } = await bench.run(create, { targetUrl: 'https://example.org/launch', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'launch' });
    expect(Object.keys(records[0]!)).toEqual([...LINK_RECORD_FIELDS]);
    expect(records[0]).toMatchObject({ targetUrl: 'https://example.org/launch?utm_source=newsletter&utm_medium=email&utm_campaign=launch', blocked: false, hasPassword: false, expiresAt: null });
  });

  test('a target without a scheme gets https:// and the record shows it', async () => {
    const { records } = await bench.run(create, { targetUrl: 'www.example.com/page' });
    expect(records[0]!.targetUrl).toBe('https://www.example.com/page');
  });

  test('expiry typed without a zone is read in the time zone and normalised once; password and domain kept', async () => {
    const { records } = await bench.run(
      create,
      { targetUrl: 'https://example.org/x', domain: 'GO.example.org', expiresAt: '2030-06-01T12:00:00', password: 'secret12', title: 'Summer', slug: 'summer-x' },
      { timeZone: 'Europe/Berlin' },
    );
    expect(records[0]).toMatchObject({ expiresAt: '2030-06-01T10:00:00.000Z', hasPassword: true, domain: 'go.example.org', slug: 'summer-x', title: 'Summer' });
    const stored = await bench.client.getLink(String(records[0]!.id));
    expect(stored.expiresAt).toBe(records[0]!.expiresAt);
  });

  test('a bad slug is refused in the form\'s words before anything is sent', async () => {
    const error = await bench.refused(create, { targetUrl: 'https://example.org', slug: 'spring sale' });
    expect(error.field).toBe('slug');
    expect(error.message).toMatch(/^Slug may contain .*a space is not allowed/);
  });

  test('missing target, a non-web URL and a past expiry are refused by label, nothing sent', async () => {
    expect((await bench.refused(create, { targetUrl: '' })).message).toMatch(/"Target URL" is required/);
    expect((await bench.refused(create, { targetUrl: 'ftp://example.org/file' })).message).toMatch(/^Target URL must be an absolute http/);
    const past = await bench.refused(create, { targetUrl: 'https://example.org', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.field).toBe('expiresAt');
    expect(past.message).toMatch(/^Expires At is in the past/);
  });

  test('a UTM value with a broken character names the UTM field', async () => {
    const error = await bench.refused(create, { targetUrl: 'https://example.org', utmCampaign: 'sale\uD83D' });
    expect(error.field).toBe('utmCampaign');
    expect(error.message).toMatch(/^UTM Campaign contains a broken character/);
  });

  test('a rerun makes a new link (Create is not Find or Create)', async () => {
    const first = await bench.run(create, { targetUrl: 'https://example.org/rerun' });
    const second = await bench.run(create, { targetUrl: 'https://example.org/rerun' });
    expect(second.records[0]!.id).not.toBe(first.records[0]!.id);
  });
});
