/** Click statistics of a link, computed from its recorded clicks as the document describes. */
import type { ClickRecord } from './types';

export interface CountedLabel {
  label: string;
  clicks: number;
}

export interface LinkStats {
  linkId: string;
  totalClicks: number;
  clicksByDay: Array<{ date: string; clicks: number }>;
  topCountries: CountedLabel[];
  topDevices: CountedLabel[];
  topBrowsers: CountedLabel[];
  topReferrers: CountedLabel[];
}

export const TOP_LIST_LENGTH = 10;

function countBy(clicks: readonly ClickRecord[], label: (click: ClickRecord) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const click of clicks) counts.set(label(click), (counts.get(label(click)) ?? 0) + 1);
  return counts;
}

/** Clicks descending, ties by label ascending, at most 10 entries. */
function top(clicks: readonly ClickRecord[], label: (click: ClickRecord) => string): CountedLabel[] {
  return [...countBy(clicks, label)]
    .map(([name, count]) => ({ label: name, clicks: count }))
    .sort((a, b) => b.clicks - a.clicks || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .slice(0, TOP_LIST_LENGTH);
}

export function computeStats(linkId: string, clicks: readonly ClickRecord[]): LinkStats {
  const clicksByDay = [...countBy(clicks, (c) => c.at.slice(0, 10))]
    .map(([date, count]) => ({ date, clicks: count }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return {
    linkId,
    totalClicks: clicks.length,
    clicksByDay,
    topCountries: top(clicks, (c) => c.country),
    topDevices: top(clicks, (c) => c.device),
    topBrowsers: top(clicks, (c) => c.browser),
    topReferrers: top(clicks, (c) => c.referrer),
  };
}
