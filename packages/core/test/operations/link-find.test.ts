import { operationByKey } from '@shortlink/core/operations';
import { DEMO_DOMAIN, operationBench } from './sandbox-run';

const find = operationByKey('link.find');
const bench = operationBench();

describe('link.find', () => {
  test('the UTM-tagged target on the default domain finds the seeded link, parameters in any order', async () => {
    const { records, summary } = await bench.run(find, { targetUrl: 'https://EXAMPLE.org/spring-sale', utmSource: 'newsletter' });
    expect(records.map((record) => record.slug)).toEqual(['spring-sale']);
    expect(summary).toEqual({ found: true });
  });

  test('the same target on another domain is another link: no record, a summary saying so', async () => {
    const { records, summary } = await bench.run(find, { targetUrl: 'https://example.org/spring-sale?utm_source=newsletter', domain: DEMO_DOMAIN });
    expect(records).toEqual([]);
    expect(summary).toMatchObject({ found: false, message: `No link with the target URL https://example.org/spring-sale?utm_source=newsletter on the domain ${DEMO_DOMAIN}.` });
  });

  test('by slug on a custom domain', async () => {
    const { records } = await bench.run(find, { slug: 'docs', domain: DEMO_DOMAIN });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ slug: 'docs', domain: DEMO_DOMAIN, shortUrl: expect.stringContaining(DEMO_DOMAIN) });
  });

  test('paused links are left out unless Include Paused, Blocked or Expired Links is on', async () => {
    const made = await bench.client.createLink({ targetUrl: 'https://example.org/find-paused', slug: 'find-paused' });
    await bench.client.updateLink(made.id, { active: false });
    expect((await bench.run(find, { slug: 'find-paused' })).records).toEqual([]);
    expect((await bench.run(find, { slug: 'find-paused', includeInactive: true })).records[0]).toMatchObject({ id: made.id, active: false });
  });

  test('Limit caps the records', async () => {
    for (let i = 0; i < 3; i++) await bench.client.createLink({ targetUrl: 'https://example.org/many' });
    expect((await bench.run(find, { targetUrl: 'example.org/many', limit: '2' })).records).toHaveLength(2);
  });

  test('bad input is refused by label before anything is sent', async () => {
    expect((await bench.refused(find, {})).message).toBe('Enter a "Target URL" or a "Slug" to search for.');
    expect((await bench.refused(find, { slug: 'a b' })).field).toBe('slug');
    expect((await bench.refused(find, { targetUrl: 'https://example.org', limit: '0' })).message).toMatch(/"Limit" must be a whole number from 1 to 1000/);
  });
});
