/**
 * Which links a report (or the Clicks Per Day trigger) covers, decided link by link from what the list
 * gives: the campaign tags of the stored target, the domain, the creation day, or chosen links (ids or
 * short URLs). Pure: the walk over the list is the caller's.
 */
import { domainKey } from '../../link-index/same-link';
import { shortUrlKey } from '../../link-index/short-url';
import type { Link } from '../../types';
import { campaignTagsOf } from './campaign-of-link';
import { serviceDay } from '../../basics/calendar-days';
import type { DayRange } from './report-days';

export type LinkSelection =
  | { kind: 'all' }
  | { kind: 'campaign'; campaign: string; source?: string; medium?: string }
  | { kind: 'domain'; domain: string | null }
  | { kind: 'created'; range: DayRange }
  | { kind: 'chosen'; links: readonly string[] };

/** Whether a link of the list is in the selection. */
export function isSelected(link: Link, selection: LinkSelection): boolean {
  switch (selection.kind) {
    case 'all':
      return true;
    case 'campaign': {
      const tags = campaignTagsOf(link.targetUrl);
      if (tags.campaign !== selection.campaign) return false;
      if (selection.source !== undefined && tags.source !== selection.source) return false;
      return selection.medium === undefined || tags.medium === selection.medium;
    }
    case 'domain':
      return domainKey(link.domain) === domainKey(selection.domain);
    case 'created': {
      const at = typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : NaN;
      if (!Number.isFinite(at)) return false;
      const day = serviceDay(at);
      return day >= selection.range.from && day <= selection.range.to;
    }
    case 'chosen':
      return chosenEntryOf(link, selection.links) !== undefined;
  }
}

/** The entry (id or short URL) of `chosen` that names the link, if any. */
export function chosenEntryOf(link: Link, chosen: readonly string[]): string | undefined {
  const key = typeof link.shortUrl === 'string' ? shortUrlKey(link.shortUrl) : undefined;
  return chosen.find((entry) => entry === String(link.id) || (key !== undefined && shortUrlKey(entry) === key));
}

/** The selection in words, for summaries and errors ("links of campaign spring_sale from newsletter"). */
export function describeSelection(selection: LinkSelection): string {
  switch (selection.kind) {
    case 'all':
      return 'links of the account';
    case 'campaign': {
      const parts = [`links of campaign "${selection.campaign}"`];
      if (selection.source !== undefined) parts.push(`source "${selection.source}"`);
      if (selection.medium !== undefined) parts.push(`medium "${selection.medium}"`);
      return parts.join(', ');
    }
    case 'domain':
      return selection.domain === null ? 'links on the default domain' : `links on ${selection.domain}`;
    case 'created':
      return `links created from ${selection.range.from} to ${selection.range.to}`;
    case 'chosen':
      return `${selection.links.length} chosen link${selection.links.length === 1 ? '' : 's'}`;
  }
}
