import { operationByKey } from '@shortlink/core/operations';
import { DEMO_DOMAIN, operationBench } from './sandbox-run';

const findOrCreate = operationByKey('link.findOrCreate');
const bench = operationBench();

describe('link.findOrCreate', () => {
  test('first run creates, the rerun finds the same link with the same record', async () => {
    const values = { targetUrl: 'https://example.org/fc', utmSource: 'sheet', utmCampaign: 'fc' };
    const first = await bench.run(findOrCreate, values);
    const second = await bench.run(findOrCreate, values);
    expect(first.records[0]).toMatchObject({ created: true });
    expect(second.records[0]).toEqual({ ...first.records[0], created: false });
  });

  test('other UTM values are another link', async () => {
    const a = await bench.run(findOrCreate, { targetUrl: 'https://example.org/fc2', utmSource: 'a' });
    const b = await bench.run(findOrCreate, { targetUrl: 'https://example.org/fc2', utmSource: 'b' });
    expect(b.records[0]).toMatchObject({ created: true });
    expect(b.records[0]!.id).not.toBe(a.records[0]!.id);
  });

  test('the domain counts: the seeded default-domain link is not reused on the custom domain', async () => {
    const onDefault = await bench.run(findOrCreate, { targetUrl: 'https://example.org/spring-sale', utmSource: 'newsletter' });
    expect(onDefault.records[0]).toMatchObject({ created: false, slug: 'spring-sale', domain: null });
    const onCustom = await bench.run(findOrCreate, { targetUrl: 'https://example.org/spring-sale', utmSource: 'newsletter', domain: DEMO_DOMAIN });
    expect(onCustom.records[0]).toMatchObject({ created: true, domain: DEMO_DOMAIN });
  });

  test('a paused link is not reused unless asked', async () => {
    const made = await bench.run(findOrCreate, { targetUrl: 'www.example.org/paused' });
    expect(made.records[0]!.targetUrl).toBe('https://www.example.org/paused');
    await bench.client.updateLink(String(made.records[0]!.id), { active: false });
    const reused = await bench.run(findOrCreate, { targetUrl: 'www.example.org/paused', reuseInactive: 'true' });
    expect(reused.records[0]).toMatchObject({ id: made.records[0]!.id, created: false, active: false });
    const fresh = await bench.run(findOrCreate, { targetUrl: 'www.example.org/paused' });
    expect(fresh.records[0]).toMatchObject({ created: true, active: true });
  });

  test('bad input is refused before anything is sent', async () => {
    expect((await bench.refused(findOrCreate, { targetUrl: 'https://example.org', slug: '-x' })).message).toMatch(/^Slug must start with a letter or digit/);
    expect((await bench.refused(findOrCreate, { targetUrl: 'https://example.org', reuseInactive: 'maybe' })).message).toMatch(/"Reuse Paused, Blocked or Expired Links" must be yes or no/);
    expect((await bench.refused(findOrCreate, {})).field).toBe('targetUrl');
  });
});
