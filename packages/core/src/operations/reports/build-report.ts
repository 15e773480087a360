/** A report's table from its links: the rows of the chosen shape, their columns and the totals beside them. */
import { REPORT_COLUMNS, BREAKDOWN_PERIOD, type Breakdown, type ReportShape } from './report-columns';
import type { DayRange } from './report-days';
import { daysOf } from './report-days';
import { breakdownRows, campaignDayRows, campaignTotalRows, foldQrSiblings, linkDayRows, linkTotalRows, totalClicksInRange, totalScansInRange, type ReportLink, type ReportRow } from './report-rows';
import { campaignTagsOf } from './campaign-of-link';
import { NO_CAMPAIGN } from './report-columns';

export interface ReportTable {
  columns: readonly string[];
  rows: ReportRow[];
  /** Plain totals: the range, how many links, days, campaigns and rows, and the clicks and scans in the range. */
  summary: Record<string, string | number>;
}

export function buildReport(collected: readonly ReportLink[], range: DayRange, shape: ReportShape, breakdown: Breakdown = 'country'): ReportTable {
  // A link and its QR code are one row: the sibling's visits are the link's scans.
  const links = foldQrSiblings(collected);
  const rows =
    shape === 'linkDay'
      ? linkDayRows(links, range)
      : shape === 'campaignDay'
        ? campaignDayRows(links, range)
        : shape === 'campaignTotal'
          ? campaignTotalRows(links, range)
          : shape === 'linkTotal'
            ? linkTotalRows(links, range)
            : breakdownRows(links, breakdown);
  const campaigns = new Set(links.map((entry) => campaignTagsOf(entry.link.targetUrl).campaign || NO_CAMPAIGN));
  const summary: Record<string, string | number> = {
    from: range.from,
    to: range.to,
    days: daysOf(range).length,
    links: links.length,
    campaigns: campaigns.size,
    rows: rows.length,
    clicks: totalClicksInRange(links, range),
    scans: totalScansInRange(links, range),
  };
  if (shape === 'breakdown') {
    summary.breakdownPeriod = BREAKDOWN_PERIOD;
    summary.allTimeClicks = links.reduce((total, entry) => total + entry.stats.totalClicks + (entry.qrStats?.totalClicks ?? 0), 0);
  }
  return { columns: REPORT_COLUMNS[shape], rows, summary };
}
