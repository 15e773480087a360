/**
 * The Clicks Per Day trigger against the sandbox on a clock the test moves over UTC midnights: the first
 * poll delivers yesterday, polls within a day send nothing, a restart (state through JSON) repeats nothing,
 * days missed while off come once on return (31 at most, oldest first), a round larger than a poll's
 * request limit delivers once when all links are read, and per-campaign records add up their links.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { pollClicksPerDay, type DailyClicksRecord } from '../../src/operations/triggers/clicks-per-day/poll';
import { runTrigger, triggerByKey } from '@shortlink/core/operations';
import type { ClicksPerDayState } from '@shortlink/core/host';
import { type PollClicksPerDayOptions } from '../../src/operations/triggers/clicks-per-day/poll';
import { click } from '../../../../test/support/clicks';

const DAY = 86_400_000;
const START = Date.parse('2026-03-10T09:00:00Z');
let clock = START;
let sandbox: Sandbox;
let accounts = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

async function account(): Promise<{ client: ShortLinkClient; links: { id: string; shortUrl: string }[]; sent: () => number }> {
  clock = START;
  const { apiKey } = sandbox.createAccount({ name: `daily ${++accounts}`, email: `daily${accounts}@example.org`, plan: 'business' });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  const links = [];
  for (const [i, campaign] of ['spring', 'spring', 'autumn'].entries()) {
    const link = await client.createLink({ targetUrl: `https://example.org/${i}?utm_campaign=${campaign}&utm_source=mail`, title: `L${i}` });
    links.push({ id: link.id, shortUrl: link.shortUrl });
  }
  return { client, links, sent: () => sandbox.requests.filter((r) => r.path.startsWith('/api/v1/')).length };
}

function trigger(client: ShortLinkClient, options: Omit<PollClicksPerDayOptions, 'now'>) {
  let stored: unknown;
  const delivered: DailyClicksRecord[] = [];
  return {
    delivered,
    /** A poll as a host runs it; the state goes through JSON (a restart keeps only that). */
    async poll() {
      const result = await pollClicksPerDay(client, stored as ClicksPerDayState | undefined, { ...options, now: () => clock });
      stored = JSON.parse(JSON.stringify(result.state));
      delivered.push(...result.records);
      return result;
    },
  };
}

const at = (day: number, hour = 0, minute = 1) => START - 9 * 3600_000 + day * DAY + hour * 3600_000 + minute * 60_000;

test('first poll: yesterday; within a day nothing (no request); after midnight the day closed, once; restarts repeat nothing', async () => {
  const a = await account();
  await click(a.links[0]!.shortUrl, 3); // 2026-03-10
  const t = trigger(a.client, { scope: { createdWithinDays: 30 }, includeZeroDays: true });
  const first = await t.poll();
  expect(first.records.map((r) => [r.date, r.linkId, r.clicks])).toEqual(a.links.map((l) => ['2026-03-09', l.id, 0]).reverse());
  expect(first.requests).toBe(1 + 3);

  clock = at(0, 23, 59);
  const before = a.sent();
  const quiet = await t.poll();
  expect([quiet.records, quiet.requests, a.sent() - before]).toEqual([[], 0, 0]);

  clock = at(1, 0, 0); // 2026-03-11 00:00 UTC: the 10th has closed
  await click(a.links[1]!.shortUrl, 2); // on the 11th
  const closed = await t.poll();
  expect(closed.records.map((r) => [r.date, r.linkId, r.clicks]).sort()).toEqual([['2026-03-10', a.links[0]!.id, 3], ['2026-03-10', a.links[1]!.id, 0], ['2026-03-10', a.links[2]!.id, 0]].sort());
  expect(closed.records[0]).toEqual(expect.objectContaining({ id: expect.stringMatching(/:2026-03-10$/), shortUrl: expect.any(String), title: expect.any(String), campaign: expect.any(String), source: 'mail' }));
  expect((await t.poll()).records).toEqual([]);

  clock = at(2, 8);
  const next = await t.poll();
  expect(next.records.filter((r) => r.clicks > 0).map((r) => [r.date, r.linkId, r.clicks])).toEqual([['2026-03-11', a.links[1]!.id, 2]]);
  const ids = t.delivered.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
});

test('days missed while off: delivered once on return, oldest first, 31 at most; zero days left out unless chosen', async () => {
  const a = await account();
  const t = trigger(a.client, { scope: { linkIds: a.links.map((l) => l.id) } });
  await t.poll(); // binds the state on the 9th
  for (const day of [1, 5, 20, 39]) {
    clock = at(day, 12);
    await click(a.links[2]!.shortUrl, day);
  }
  clock = at(41, 6);
  const back = await t.poll();
  // Off from the 10th to 2026-04-19: the 31 days 03-20 … 04-19 are delivered; the 11th and 15th are skipped.
  expect(back.notices.join(' ')).toMatch(/only the last 31 days \(from 2026-03-20\)/);
  expect(back.records.map((r) => [r.date, r.clicks])).toEqual([['2026-03-30', 20], ['2026-04-18', 39]]);
  expect(back.requests).toBe(3 * 2); // chosen links: the link and its statistics, each
  expect((await t.poll()).records).toEqual([]);
});

test('a round larger than one poll: nothing until all links are read, then every (link, day) once; per campaign adds up', async () => {
  const a = await account();
  await click(a.links[0]!.shortUrl, 2);
  await click(a.links[1]!.shortUrl, 5);
  await click(a.links[2]!.shortUrl, 1);
  const t = trigger(a.client, { scope: { campaign: 'spring', source: 'mail' }, per: 'campaign', maxRequests: 1 });
  clock = at(1, 1);
  const polls = [];
  for (let i = 0; i < 6; i++) polls.push(await t.poll());
  expect(polls.map((p) => [p.complete, p.records.length, p.requests])).toEqual([
    [false, 0, 1], // the list
    [false, 0, 1], // the first link's statistics
    [true, 1, 1], // the second link's: the round is over, the campaign's day is delivered
    [true, 0, 0], // the same day: no request
    [true, 0, 0],
    [true, 0, 0],
  ]);
  expect(t.delivered).toEqual([{ id: 'spring:2026-03-10', date: '2026-03-10', campaign: 'spring', links: 2, clicks: 7 }]);
});

test('the trigger as hosts run it (form values, state kept between polls): campaign scope, per link, days without clicks', async () => {
  const a = await account();
  await click(a.links[2]!.shortUrl, 4);
  const trigger = triggerByKey('trigger.clicksPerDay');
  const values = { dailyScope: 'campaign', campaign: 'autumn', per: 'link', includeZeroDays: 'true' };
  const first = await runTrigger(trigger, a.client, values, undefined, { now: () => clock });
  expect(first.records).toEqual([expect.objectContaining({ date: '2026-03-09', linkId: a.links[2]!.id, campaign: 'autumn', clicks: 0 })]);
  clock = at(1, 2);
  const second = await runTrigger(trigger, a.client, values, JSON.parse(JSON.stringify(first.state)), { now: () => clock });
  expect(second.records).toEqual([
    { id: `${a.links[2]!.id}:2026-03-10`, date: '2026-03-10', shortUrl: a.links[2]!.shortUrl, title: 'L2', targetUrl: 'https://example.org/2?utm_campaign=autumn&utm_source=mail', campaign: 'autumn', source: 'mail', medium: '', linkId: a.links[2]!.id, clicks: 4 },
  ]);
  await expect(runTrigger(trigger, a.client, { dailyScope: 'campaign' }, undefined, { now: () => clock })).rejects.toThrow(/"Campaign" is required/);
});
