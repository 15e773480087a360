/**
 * The reports room without requests: campaign tags read as the sameness rules read a target, the default
 * range (the last 7 complete UTC days), the shapes over random click histories (fast-check: every day of
 * the range present, sums equal the stats, campaign rows add up their links), breakdowns that never split
 * clicks by guess, and a CSV a spreadsheet opens safely.
 */
import fc from 'fast-check';
import { InputError } from '../src';
import { breakdownRows, campaignDayRows, campaignTotalRows, linkDayRows, linkTotalRows, type ReportLink } from '../src/operations/reports/report-rows';
import { buildReport } from '../src/operations/reports/build-report';
import { campaignTagsOf } from '../src/operations/reports/campaign-of-link';
import { daysOf, lastCompleteDays, readDayRange } from '../src/operations/reports/report-days';
import { isSelected } from '../src/operations/reports/link-selection';
import { REPORT_COLUMNS } from '../src/operations/reports/report-columns';
import { reportCsv } from '../src/operations/reports/report-csv';
import { link } from './helpers';
import { requestsThatFit } from '../src/operations/reports/collect-report';
import type { PacingState } from '../src/http/pacer';

const stats = (clicksByDay: { date: string; clicks: number }[], extra: Partial<ReportLink['stats']> = {}): ReportLink['stats'] => ({
  totalClicks: clicksByDay.reduce((t, d) => t + d.clicks, 0),
  clicksByDay,
  topCountries: [],
  topDevices: [],
  topBrowsers: [],
  topReferrers: [],
  ...extra,
});

describe('campaign tags of a stored target', () => {
  test('decoded as the sameness rules decode, capitals kept, first value of a repeat', () => {
    expect(campaignTagsOf('https://example.org/a?utm_source=news%20letter&utm_campaign=Spring_Sale&utm_medium=email&utm_campaign=other#x')).toEqual({
      campaign: 'Spring_Sale',
      source: 'news letter',
      medium: 'email',
    });
    expect(campaignTagsOf('https://example.org/a')).toEqual({ campaign: '', source: '', medium: '' });
    expect(campaignTagsOf('https://example.org/a?utm%5Fcampaign=x')).toEqual({ campaign: 'x', source: '', medium: '' });
  });

  test('selection by campaign: encoding alike, capitals differ, source and medium narrow', () => {
    const l = link({ targetUrl: 'https://example.org/?utm_campaign=spring%5Fsale&utm_source=news' });
    expect(isSelected(l, { kind: 'campaign', campaign: 'spring_sale' })).toBe(true);
    expect(isSelected(l, { kind: 'campaign', campaign: 'Spring_sale' })).toBe(false);
    expect(isSelected(l, { kind: 'campaign', campaign: 'spring_sale', source: 'news' })).toBe(true);
    expect(isSelected(l, { kind: 'campaign', campaign: 'spring_sale', medium: 'email' })).toBe(false);
    expect(isSelected(l, { kind: 'chosen', links: ['https://SHO.RT/spring-sale/'] })).toBe(true);
    expect(isSelected(l, { kind: 'domain', domain: null })).toBe(true);
    expect(isSelected(l, { kind: 'created', range: { from: '2026-03-01', to: '2026-03-01' } })).toBe(true);
    expect(isSelected(l, { kind: 'created', range: { from: '2026-03-02', to: '2026-03-09' } })).toBe(false);
  });
});

describe('day ranges (UTC days)', () => {
  const now = Date.parse('2026-03-09T00:30:00+02:00'); // 2026-03-08 22:30 UTC: today is the 8th in UTC
  test('default: the last 7 complete days, yesterday last', () => {
    expect(lastCompleteDays(now)).toEqual({ from: '2026-03-01', to: '2026-03-07' });
    expect(readDayRange(undefined, undefined, now)).toEqual({ from: '2026-03-01', to: '2026-03-07' });
    expect(readDayRange('2026-03-05', undefined, now)).toEqual({ from: '2026-03-05', to: '2026-03-07' });
    expect(readDayRange(undefined, '2026-02-10', now)).toEqual({ from: '2026-02-04', to: '2026-02-10' });
  });
  test('reversed or too long ranges are refused naming the fields', () => {
    expect(() => readDayRange('2026-03-05', '2026-03-01', now)).toThrow(/"From" \(2026-03-05\) must be on or before "To"/);
    expect(() => readDayRange('2024-01-01', '2026-01-01', now)).toThrow(InputError);
    expect(() => readDayRange('March 1', undefined, now)).toThrow(/"From" must be a day such as/);
  });
});

/** Random click histories over a few links and campaigns, days around a 10-day window. */
const history = fc.array(
  fc.record({
    campaign: fc.constantFrom('spring', 'Spring', 'autumn', ''),
    days: fc.dictionary(fc.integer({ min: 0, max: 14 }).map((n) => new Date(Date.UTC(2026, 1, 20 + n)).toISOString().slice(0, 10)), fc.integer({ min: 1, max: 50 })),
  }),
  { minLength: 1, maxLength: 6 },
);

function toLinks(input: { campaign: string; days: Record<string, number> }[]): ReportLink[] {
  return input.map((entry, i) => ({
    link: link({ id: String(2000 + i), shortUrl: `https://sho.rt/l${i}`, targetUrl: `https://example.org/${i}${entry.campaign ? `?utm_campaign=${entry.campaign}` : ''}` }),
    // Reversed: the rows must not depend on the order the service lists its days in.
    stats: stats(Object.entries(entry.days).reverse().map(([date, clicks]) => ({ date, clicks }))),
  }));
}

test('property: D days × L links rows, 0-filled, sums equal the stats, campaigns add up their links', () => {
  const range = { from: '2026-02-23', to: '2026-03-04' };
  const days = daysOf(range);
  fc.assert(
    fc.property(history, (input) => {
      const links = toLinks(input);
      const inRange = (l: ReportLink) => l.stats.clicksByDay.filter((d) => d.date >= range.from && d.date <= range.to).reduce((t, d) => t + d.clicks, 0);
      const rows = linkDayRows(links, range);
      expect(rows).toHaveLength(days.length * links.length);
      for (const day of days) expect(rows.filter((r) => r.date === day)).toHaveLength(links.length);
      for (const row of rows) {
        const entry = links.find((l) => l.link.id === row.linkId)!;
        expect(row.clicks).toBe(entry.stats.clicksByDay.find((d) => d.date === row.date)?.clicks ?? 0);
        expect(Object.keys(row)).toEqual(REPORT_COLUMNS.linkDay);
      }
      const totals = linkTotalRows(links, range);
      totals.forEach((row, i) => expect(row.clicks).toBe(inRange(links[i]!)));
      const perCampaignDay = campaignDayRows(links, range);
      const perCampaign = campaignTotalRows(links, range);
      expect(perCampaignDay).toHaveLength(days.length * perCampaign.length);
      for (const campaign of perCampaign) {
        const mine = links.filter((l) => (campaignTagsOf(l.link.targetUrl).campaign || '(no campaign)') === campaign.campaign);
        expect(campaign.links).toBe(mine.length);
        expect(campaign.clicks).toBe(mine.reduce((t, l) => t + inRange(l), 0));
        const daily = perCampaignDay.filter((r) => r.campaign === campaign.campaign);
        expect(daily.reduce((t, r) => t + (r.clicks as number), 0)).toBe(campaign.clicks);
      }
      const total = buildReport(links, range, 'linkDay').summary.clicks;
      expect(total).toBe(links.reduce((t, l) => t + inRange(l), 0));
      expect(perCampaign.reduce((t, r) => t + (r.clicks as number), 0)).toBe(total);
    }),
    { numRuns: 200 },
  );
});

test('breakdown: all time, sums over links, clicks the top lists leave out are one "(not listed)" row', () => {
  const a: ReportLink = { link: link({ id: '1' }), stats: stats([{ date: '2026-03-01', clicks: 10 }], { topCountries: [{ label: 'DE', clicks: 6 }, { label: 'US', clicks: 4 }] }) };
  const b: ReportLink = { link: link({ id: '2' }), stats: { ...stats([{ date: '2026-03-02', clicks: 10 }], { topCountries: [{ label: 'US', clicks: 5 }] }), totalClicks: 10 } };
  expect(breakdownRows([a, b], 'country')).toEqual([
    { breakdown: 'country', value: 'US', clicks: 9, share: 0.45, period: 'all time' },
    { breakdown: 'country', value: 'DE', clicks: 6, share: 0.3, period: 'all time' },
    { breakdown: 'country', value: '(not listed)', clicks: 5, share: 0.25, period: 'all time' },
  ]);
  expect(breakdownRows([], 'device')).toEqual([]);
  expect(buildReport([a, b], { from: '2026-03-02', to: '2026-03-02' }, 'breakdown').summary).toEqual(expect.objectContaining({ breakdownPeriod: 'all time', allTimeClicks: 20, clicks: 10 }));
});

test('CSV: header in column order, numbers bare, quotes doubled, formulas defused', () => {
  const csv = reportCsv(['date', 'title', 'clicks'], [
    { date: '2026-03-01', title: 'Sale, "big"', clicks: 3 },
    { date: '2026-03-02', title: '=HYPERLINK("x")', clicks: 0 },
  ]);
  expect(csv).toBe('date,title,clicks\r\n2026-03-01,"Sale, ""big""",3\r\n2026-03-02,"\'=HYPERLINK(""x"")",0\r\n');
});

describe('requests that fit the time a call has left (a report sized by its deadline)', () => {
  const now = 1_000_000;
  const pacing = (over: Partial<PacingState>): PacingState => ({ v: 1, atMs: now, othersSamples: [], ...over });
  test('what the running window has left, then a whole window at each window start', () => {
    expect(requestsThatFit(10_000, now, pacing({ limit: 120, remaining: 117, resetAtMs: now + 50_000 }))).toBe(117);
    expect(requestsThatFit(55_000, now, pacing({ limit: 120, remaining: 117, resetAtMs: now + 50_000 }))).toBe(237);
    expect(requestsThatFit(171_000, now, pacing({ limit: 120, remaining: 0, resetAtMs: now + 50_000 }))).toBe(360);
  });
  test('nothing learned yet: the documented 120 a minute, a fresh window now', () => {
    expect(requestsThatFit(30_000, now, pacing({}))).toBe(120);
    expect(requestsThatFit(60_000, now, pacing({}))).toBe(240);
  });
});
