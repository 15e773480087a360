/**
 * The Link Clicks trigger of the built Zapier zip, through the zip's own handler (as Zapier's runtime
 * calls it, z.cache kept between calls), against a sandbox with real clicks on its redirect endpoint:
 * milestones reached between polls come once, at most 100 items a poll, the rest next poll, no id twice.
 */
import { linkIdentity } from '@shortlink/core/host';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { click } from '../support/clicks';
import { buildZapierZip } from './support/artifacts';
import { ZapierHandler } from './support/zapier-handler';

type Item = Record<string, unknown>;

let sandbox: Sandbox;
const handler = new ZapierHandler();

beforeAll(async () => {
  const zip = buildZapierZip();
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
  await handler.start(zip);
}, 300_000);

afterAll(async () => {
  await handler.stop();
  await sandbox?.close();
});

it('Link Clicks: milestones between polls once each, 100 items a poll, the rest next poll, no id twice', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'e2e clicks', email: 'e2e-clicks@example.org', plan: 'business' });
  const links = sandbox.seedLinks(accountId, 60, { label: 'e2e-clicks' });
  const poll = async (): Promise<Item[]> => {
    const answer = await handler.call('triggers.link_clicks.operation.perform', {
      authData: { apiKey, baseUrl: sandbox.baseUrl },
      inputData: { clicksMode: 'milestones', milestones: '1, 3', clicksScope: 'recent', createdWithinDays: '30' },
      meta: { zap: { id: 'e2e-clicks-zap' } },
    });
    if (!answer.ok) throw new Error(`link_clicks failed: ${answer.error?.message}`);
    return answer.result!.results as Item[];
  };
  expect(await poll()).toEqual([]); // the counts as they are

  for (const link of links) await click(link.shortUrl, 3); // each passes 1 and 3: 120 events
  const first = await poll();
  const second = await poll();
  const third = await poll();
  expect([first.length, second.length, third.length]).toEqual([100, 20, 0]);
  const ids = [...first, ...second].map((item) => String(item.id));
  expect(new Set(ids).size).toBe(120);
  expect(ids.sort()).toEqual(links.flatMap((l) => [`${linkIdentity(l)}:m1`, `${linkIdentity(l)}:m3`]).sort());
  expect(first[0]).toMatchObject({ linkId: expect.any(String), shortUrl: expect.stringContaining('/e2e-clicks-'), clicks: 3, clicksBefore: 0, newClicks: 3 });

  await click(links[0]!.shortUrl, 1);
  expect(await poll()).toEqual([]); // 4 clicks: no milestone left
  expect(handler.printed.join('\n')).not.toContain(apiKey);
});
