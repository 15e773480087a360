/**
 * The rows of each report shape from the links and their statistics (pure: no request). The service's
 * stats give clicks per day (days with clicks only) and all-time top lists; every number here is a sum of
 * those, nothing is estimated: per-day rows are filled with 0 for days without clicks, campaign rows add up
 * their links, and a breakdown is all time (the service has no breakdown per day).
 */
import type { Link, LinkStats } from '../../types';
import { campaignTagsOf } from './campaign-of-link';
import { BREAKDOWN_PERIOD, NO_CAMPAIGN, NOT_LISTED, type Breakdown } from './report-columns';
import { daysOf, type DayRange } from './report-days';

/** One link of the report with what GET /links/{id}/stats answered for it. */
export interface ReportLink {
  link: Link;
  stats: Pick<LinkStats, 'totalClicks' | 'clicksByDay' | 'topCountries' | 'topDevices' | 'topBrowsers' | 'topReferrers'>;
}

export type ReportRow = Record<string, string | number>;

/** A link's clicks on each day of the range, in the range's order (0 for days without clicks). */
export function clicksPerDay(stats: ReportLink['stats'], days: readonly string[]): number[] {
  const byDay = new Map<string, number>();
  for (const entry of stats.clicksByDay) byDay.set(entry.date.slice(0, 10), (byDay.get(entry.date.slice(0, 10)) ?? 0) + entry.clicks);
  return days.map((day) => byDay.get(day) ?? 0);
}

function linkColumns(link: Link): ReportRow {
  const tags = campaignTagsOf(link.targetUrl);
  return {
    shortUrl: String(link.shortUrl ?? ''),
    title: String(link.title ?? ''),
    targetUrl: String(link.targetUrl ?? ''),
    campaign: tags.campaign,
    source: tags.source,
    medium: tags.medium,
    linkId: String(link.id),
  };
}

function sum(numbers: readonly number[]): number {
  return numbers.reduce((total, n) => total + n, 0);
}

/** One row per link per day: days × links rows, day by day, the links in the report's order within a day. */
export function linkDayRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  const days = daysOf(range);
  const perLink = links.map((entry) => ({ columns: linkColumns(entry.link), clicks: clicksPerDay(entry.stats, days) }));
  const rows: ReportRow[] = [];
  days.forEach((date, index) => {
    for (const { columns, clicks } of perLink) {
      rows.push({ date, ...columns, clicks: clicks[index]! });
    }
  });
  return rows;
}

/** One row per link with its clicks in the range. */
export function linkTotalRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  const days = daysOf(range);
  return links.map((entry) => {
    const { shortUrl, title, targetUrl, campaign, source, medium, linkId } = linkColumns(entry.link);
    return { shortUrl, title, targetUrl, campaign, source, medium, linkId, from: range.from, to: range.to, clicks: sum(clicksPerDay(entry.stats, days)) } as ReportRow;
  });
}

interface CampaignGroup {
  campaign: string;
  links: number;
  clicks: number[];
}

/** The links grouped by campaign, campaigns in code-point order (stable across runs), links without one last. */
function campaignGroups(links: readonly ReportLink[], days: readonly string[]): CampaignGroup[] {
  const groups = new Map<string, CampaignGroup>();
  for (const entry of links) {
    const campaign = campaignTagsOf(entry.link.targetUrl).campaign || NO_CAMPAIGN;
    let group = groups.get(campaign);
    if (!group) groups.set(campaign, (group = { campaign, links: 0, clicks: days.map(() => 0) }));
    group.links++;
    clicksPerDay(entry.stats, days).forEach((n, i) => (group!.clicks[i]! += n));
  }
  const rank = (name: string) => (name === NO_CAMPAIGN ? 1 : 0);
  return [...groups.values()].sort((a, b) => rank(a.campaign) - rank(b.campaign) || (a.campaign < b.campaign ? -1 : a.campaign > b.campaign ? 1 : 0));
}

/** One row per campaign per day (every day present), day by day. */
export function campaignDayRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  const days = daysOf(range);
  const groups = campaignGroups(links, days);
  const rows: ReportRow[] = [];
  days.forEach((date, index) => {
    for (const group of groups) rows.push({ date, campaign: group.campaign, links: group.links, clicks: group.clicks[index]! });
  });
  return rows;
}

/** One row per campaign with its clicks in the range. */
export function campaignTotalRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  return campaignGroups(links, daysOf(range)).map((group) => ({ campaign: group.campaign, from: range.from, to: range.to, links: group.links, clicks: sum(group.clicks) }));
}

const TOP_LIST: Record<Breakdown, keyof Pick<ReportLink['stats'], 'topCountries' | 'topDevices' | 'topBrowsers' | 'topReferrers'>> = {
  country: 'topCountries',
  device: 'topDevices',
  browser: 'topBrowsers',
  referrer: 'topReferrers',
};

/**
 * One row per value of the breakdown over all the links, most clicks first, with its share of all their
 * clicks. All time: the service gives its top lists for a link's whole life, not per day, so the date range
 * cannot narrow them (the `period` column says so). Clicks a top list leaves out (a shortened list) are one
 * "(not listed)" row, so the shares add up to 1 and nothing is spread over values by guess.
 */
export function breakdownRows(links: readonly ReportLink[], breakdown: Breakdown): ReportRow[] {
  const byValue = new Map<string, number>();
  let total = 0;
  let listed = 0;
  for (const entry of links) {
    total += entry.stats.totalClicks;
    for (const item of entry.stats[TOP_LIST[breakdown]] ?? []) {
      byValue.set(item.label, (byValue.get(item.label) ?? 0) + item.clicks);
      listed += item.clicks;
    }
  }
  const entries = [...byValue].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (total > listed) entries.push([NOT_LISTED, total - listed]);
  const whole = Math.max(total, listed);
  return entries.map(([value, clicks]) => ({ breakdown, value, clicks, share: whole === 0 ? 0 : Math.round((clicks / whole) * 10_000) / 10_000, period: BREAKDOWN_PERIOD }));
}

/** Clicks of all links in the range. */
export function totalClicksInRange(links: readonly ReportLink[], range: DayRange): number {
  const days = daysOf(range);
  return sum(links.map((entry) => sum(clicksPerDay(entry.stats, days))));
}
