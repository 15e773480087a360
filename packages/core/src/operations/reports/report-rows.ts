/**
 * The rows of each report shape from the links and their statistics (pure: no request). The service's
 * stats give clicks per day (days with clicks only) and all-time top lists; every number here is a sum of
 * those, nothing is estimated: per-day rows are filled with 0 for days without clicks, campaign rows add up
 * their links, and a breakdown is all time (the service has no breakdown per day).
 */
import type { Link, LinkStats } from '../../types';
import { campaignTagsOf } from './campaign-of-link';
import { isQrSibling, pairQrSiblings } from './qr-sibling';
import { BREAKDOWN_PERIOD, NO_CAMPAIGN, NOT_LISTED, type Breakdown } from './report-columns';
import { daysOf, type DayRange } from './report-days';

/** One link of the report with what GET /links/{id}/stats answered for it. */
export interface ReportLink {
  link: Link;
  stats: Pick<LinkStats, 'totalClicks' | 'clicksByDay' | 'topCountries' | 'topDevices' | 'topBrowsers' | 'topReferrers'>;
  /** The statistics of its QR sibling (reports/qr-sibling.ts): its visits are the link's scans. */
  qrStats?: ReportLink['stats'];
}

const NO_VISITS: ReportLink['stats'] = { totalClicks: 0, clicksByDay: [], topCountries: [], topDevices: [], topBrowsers: [], topReferrers: [] };

/**
 * The report's links with each QR sibling folded into its link (its visits become the link's scans); a
 * sibling without one link to belong to stays a row of its own, all of whose visits are scans.
 */
export function foldQrSiblings(links: readonly ReportLink[]): ReportLink[] {
  const pairs = pairQrSiblings(links.map((entry) => entry.link));
  const folded = new Set(pairs.values());
  const out: ReportLink[] = [];
  links.forEach((entry, index) => {
    if (folded.has(index)) return;
    const sibling = pairs.get(index);
    if (sibling !== undefined) out.push({ link: entry.link, stats: entry.stats, qrStats: links[sibling]!.stats });
    else if (isQrSibling(entry.link)) out.push({ link: entry.link, stats: NO_VISITS, qrStats: entry.stats });
    else out.push({ link: entry.link, stats: entry.stats });
  });
  return out;
}

/** A link's scans on each day of the range (0 without a QR sibling). */
function scansPerDay(entry: ReportLink, days: readonly string[]): number[] {
  return entry.qrStats ? clicksPerDay(entry.qrStats, days) : days.map(() => 0);
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
  const perLink = links.map((entry) => ({ columns: linkColumns(entry.link), clicks: clicksPerDay(entry.stats, days), scans: scansPerDay(entry, days) }));
  const rows: ReportRow[] = [];
  days.forEach((date, index) => {
    for (const { columns, clicks, scans } of perLink) {
      rows.push({ date, ...columns, clicks: clicks[index]!, scans: scans[index]! });
    }
  });
  return rows;
}

/** One row per link with its clicks in the range. */
export function linkTotalRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  const days = daysOf(range);
  return links.map((entry) => {
    const { shortUrl, title, targetUrl, campaign, source, medium, linkId } = linkColumns(entry.link);
    return { shortUrl, title, targetUrl, campaign, source, medium, linkId, from: range.from, to: range.to, clicks: sum(clicksPerDay(entry.stats, days)), scans: sum(scansPerDay(entry, days)) } as ReportRow;
  });
}

interface CampaignGroup {
  campaign: string;
  links: number;
  clicks: number[];
  scans: number[];
}

/** The links grouped by campaign, campaigns in code-point order (stable across runs), links without one last. */
function campaignGroups(links: readonly ReportLink[], days: readonly string[]): CampaignGroup[] {
  const groups = new Map<string, CampaignGroup>();
  for (const entry of links) {
    const campaign = campaignTagsOf(entry.link.targetUrl).campaign || NO_CAMPAIGN;
    let group = groups.get(campaign);
    if (!group) groups.set(campaign, (group = { campaign, links: 0, clicks: days.map(() => 0), scans: days.map(() => 0) }));
    group.links++;
    clicksPerDay(entry.stats, days).forEach((n, i) => (group!.clicks[i]! += n));
    scansPerDay(entry, days).forEach((n, i) => (group!.scans[i]! += n));
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
    for (const group of groups) rows.push({ date, campaign: group.campaign, links: group.links, clicks: group.clicks[index]!, scans: group.scans[index]! });
  });
  return rows;
}

/** One row per campaign with its clicks in the range. */
export function campaignTotalRows(links: readonly ReportLink[], range: DayRange): ReportRow[] {
  return campaignGroups(links, daysOf(range)).map((group) => ({ campaign: group.campaign, from: range.from, to: range.to, links: group.links, clicks: sum(group.clicks), scans: sum(group.scans) }));
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
  // Every visit counts here, a scan as much as a click: the top lists do not tell them apart.
  for (const stats of links.flatMap((entry) => (entry.qrStats ? [entry.stats, entry.qrStats] : [entry.stats]))) {
    total += stats.totalClicks;
    for (const item of stats[TOP_LIST[breakdown]] ?? []) {
      byValue.set(item.label, (byValue.get(item.label) ?? 0) + item.clicks);
      listed += item.clicks;
    }
  }
  const entries = [...byValue].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (total > listed) entries.push([NOT_LISTED, total - listed]);
  const whole = Math.max(total, listed);
  return entries.map(([value, clicks]) => ({ breakdown, value, clicks, share: whole === 0 ? 0 : Math.round((clicks / whole) * 10_000) / 10_000, period: BREAKDOWN_PERIOD }));
}

/** Clicks of all links in the range (scans not included). */
export function totalClicksInRange(links: readonly ReportLink[], range: DayRange): number {
  const days = daysOf(range);
  return sum(links.map((entry) => sum(clicksPerDay(entry.stats, days))));
}

/** Scans (visits of QR siblings) of all links in the range. */
export function totalScansInRange(links: readonly ReportLink[], range: DayRange): number {
  const days = daysOf(range);
  return sum(links.map((entry) => sum(scansPerDay(entry, days))));
}
