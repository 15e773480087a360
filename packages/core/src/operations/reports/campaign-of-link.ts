/**
 * The campaign a link belongs to: the utm_campaign, utm_source and utm_medium of its stored target URL.
 * Read as the sameness rules read a target (link-index/same-link.ts): parameter names and values with their
 * percent-escapes decoded, values compared as written. "Spring_Sale" and "spring_sale" are two campaigns,
 * as they are two campaigns in Google Analytics; "spring%20sale" and "spring sale" are one.
 */
import { decode } from '../../link-index/short-url';

export interface CampaignTags {
  campaign: string;
  source: string;
  medium: string;
}

/** The UTM tags of a target URL; a tag the URL lacks is "" (the first value counts when one is repeated). */
export function campaignTagsOf(targetUrl: unknown): CampaignTags {
  const tags: CampaignTags = { campaign: '', source: '', medium: '' };
  if (typeof targetUrl !== 'string') return tags;
  const query = /\?([^#]*)/.exec(targetUrl)?.[1] ?? '';
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decode(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decode(pair.slice(at + 1));
    const key = name === 'utm_campaign' ? 'campaign' : name === 'utm_source' ? 'source' : name === 'utm_medium' ? 'medium' : undefined;
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    tags[key] = value;
  }
  return tags;
}
