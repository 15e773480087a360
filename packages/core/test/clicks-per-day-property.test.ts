/**
 * Property: whatever the poll times (over many UTC midnights), restarts, request limits per poll and
 * failures, the Clicks Per Day trigger delivers every (link, day) from yesterday-at-the-first-poll to the
 * last closed day exactly once, oldest first, with the clicks the statistics give. In-memory fetchers over
 * a random click history; the state goes through JSON between polls.
 */
import fc from 'fast-check';
import type { ClicksPerDayState } from '../src/faces/host';
import type { DailyClicksRecord } from '../src/operations/triggers/clicks-per-day/poll';
import type { Link } from '../src';
import { pollClicksPerDayWith, type ClicksPerDayFetchers } from '../src/operations/triggers/clicks-per-day/poll';
import { link } from './helpers';

const DAY = 86_400_000;
const T0 = Date.parse('2026-05-01T10:00:00Z');
const day = (n: number) => new Date(T0 + n * DAY).toISOString().slice(0, 10);

test('property: each (link, day) exactly once with the statistics\' clicks, oldest first, across restarts and failures', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.record({ link: fc.nat(3), day: fc.integer({ min: -2, max: 12 }), clicks: fc.integer({ min: 1, max: 9 }) }), { maxLength: 30 }),
      fc.array(fc.record({ advanceH: fc.integer({ min: 0, max: 40 }), maxRequests: fc.integer({ min: 1, max: 5 }), maxRecords: fc.integer({ min: 1, max: 12 }), fail: fc.boolean() }), { minLength: 1, maxLength: 25 }),
      async (linkCount, clicks, polls) => {
        const links: Link[] = Array.from({ length: linkCount }, (_, i) => link({ id: String(100 + i), shortUrl: `https://sho.rt/d${i}`, targetUrl: `https://example.org/${i}?utm_campaign=c${i % 2}`, createdAt: new Date(T0 - 5 * DAY).toISOString() }));
        const byDay = new Map<string, number>();
        for (const c of clicks) if (c.link < linkCount) byDay.set(`${100 + c.link}|${day(c.day)}`, (byDay.get(`${100 + c.link}|${day(c.day)}`) ?? 0) + c.clicks);
        let failNext = false;
        const fetchers: ClicksPerDayFetchers = {
          fetchPage: async ({ cursor }) => {
            const start = cursor === undefined ? 0 : Number(cursor);
            return { links: links.slice(start, start + 2), nextCursor: start + 2 < links.length ? String(start + 2) : null };
          },
          fetchLink: async (id) => links.find((l) => l.id === id),
          fetchStats: async (id) => {
            if (failNext) {
              failNext = false;
              throw new Error('network down');
            }
            const clicksByDay = [...byDay].filter(([k]) => k.startsWith(`${id}|`)).map(([k, n]) => ({ date: k.split('|')[1]!, clicks: n })).sort((a, b) => a.date.localeCompare(b.date));
            return { linkId: id, totalClicks: 0, clicksByDay, topCountries: [], topDevices: [], topBrowsers: [], topReferrers: [] };
          },
        };
        let now = T0;
        let stored: unknown;
        const delivered: DailyClicksRecord[] = [];
        let firstYesterday: string | undefined;
        for (const poll of polls) {
          now += poll.advanceH * 3600_000;
          failNext = poll.fail;
          try {
            const result = await pollClicksPerDayWith(fetchers, stored as ClicksPerDayState | undefined, { scope: { createdWithinDays: 30 }, includeZeroDays: true, maxRequests: poll.maxRequests, maxRecords: poll.maxRecords, now: () => now });
            // More than maxRecords only when one day alone has more (it comes whole).
            if (result.records.length > poll.maxRecords) expect(new Set(result.records.map((r) => r.date)).size).toBe(1);
            firstYesterday ??= new Date(now - DAY).toISOString().slice(0, 10);
            stored = JSON.parse(JSON.stringify(result.state));
            delivered.push(...result.records);
          } catch {
            // A failed poll keeps the state it started with (the host saves nothing).
          }
        }
        const ids = delivered.map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (let i = 1; i < delivered.length; i++) expect(delivered[i - 1]!.date <= delivered[i]!.date).toBe(true);
        for (const r of delivered) expect(r.clicks).toBe(byDay.get(`${r.linkId}|${r.date}`) ?? 0);
        // Every day from yesterday-at-the-first-poll to the state's last delivered day is there, no other.
        const done = (stored as ClicksPerDayState | undefined)?.doneThrough;
        const expected: string[] = [];
        if (done !== undefined && firstYesterday !== undefined) {
          for (let at = Date.parse(`${firstYesterday}T00:00:00Z`); new Date(at).toISOString().slice(0, 10) <= done; at += DAY) {
            for (const l of links) expected.push(`${l.id}:${new Date(at).toISOString().slice(0, 10)}`);
          }
        }
        expect([...ids].sort()).toEqual(expected.sort());
      },
    ),
    { numRuns: 150 },
  );
});
