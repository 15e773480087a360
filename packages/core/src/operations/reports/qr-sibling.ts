/**
 * Scans told from clicks (issue 37). A QR code for print opens a link of its own, the **QR sibling** of a
 * link: the same target with `utm_medium=qr`, on the same domain, found or created like Find or Create
 * ("Also Make a QR Code" with "Count QR Scans Apart"). Every visit of a QR sibling is a scan. The rule is
 * the target rather than a "-qr" slug because
 * - it works whether or not the link has a slug of its own (most links get one from the service);
 * - the landing page's analytics sees the scans as medium "qr" too, not only this service's report;
 * - "the same link" already keys on the target, so a rerun finds the sibling instead of making another,
 *   and no slug of anyone else's can be in its way.
 * The Campaign Report pairs a sibling with its link — the one link of the report whose target is the
 * sibling's with another (or no) utm_medium, on the same domain — and shows the sibling's visits as that
 * link's `scans` beside its `clicks`.
 */
import { buildCampaignUrl } from '../../forms/campaign-url';
import { domainKey, targetKey } from '../../link-index/same-link';
import { decode } from '../../link-index/short-url';
import type { Link } from '../../types';
import { campaignTagsOf } from './campaign-of-link';

/** The utm_medium of a QR sibling. */
export const QR_MEDIUM = 'qr';

/** The target of a link's QR sibling: the same page, utm_medium=qr. */
export function qrSiblingTarget(targetUrl: string): string {
  return buildCampaignUrl(targetUrl, { medium: QR_MEDIUM });
}

/** Whether the link is a QR sibling (its target's utm_medium is "qr", any case). */
export function isQrSibling(link: Pick<Link, 'targetUrl'>): boolean {
  return campaignTagsOf(link.targetUrl).medium.toLowerCase() === QR_MEDIUM;
}

/** The target without its utm_medium, compared as "the same target" is (link-index/same-link.ts). */
function withoutMedium(targetUrl: string): string | undefined {
  const at = targetUrl.indexOf('?');
  if (at < 0) return targetKey(targetUrl);
  const hash = targetUrl.indexOf('#', at);
  const query = targetUrl.slice(at + 1, hash < 0 ? undefined : hash);
  const kept = query.split('&').filter((pair) => pair !== '' && decode(pair.split('=')[0]!).toLowerCase() !== 'utm_medium');
  return targetKey(`${targetUrl.slice(0, at)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${hash < 0 ? '' : targetUrl.slice(hash)}`);
}

/** What a link and its QR sibling share: the target without utm_medium, and the domain. */
export function qrPairKey(link: Pick<Link, 'targetUrl' | 'domain'>): string | undefined {
  if (typeof link.targetUrl !== 'string') return undefined;
  const target = withoutMedium(link.targetUrl);
  return target === undefined ? undefined : `${domainKey(link.domain) ?? ''}|${target}`;
}

/**
 * Pairs each QR sibling with its link: the one non-sibling among `links` with the same pair key. A sibling
 * with none, or with several candidates (one page tagged for email and for social), stays unpaired.
 * Returns, by the index of the link, the index of its sibling.
 */
export function pairQrSiblings<T extends Pick<Link, 'targetUrl' | 'domain'>>(links: readonly T[]): Map<number, number> {
  const candidates = new Map<string, number[]>();
  links.forEach((link, index) => {
    if (isQrSibling(link)) return;
    const key = qrPairKey(link);
    if (key !== undefined) candidates.set(key, [...(candidates.get(key) ?? []), index]);
  });
  const pairs = new Map<number, number>();
  const siblingsPerLink = new Map<number, number[]>();
  links.forEach((link, index) => {
    if (!isQrSibling(link)) return;
    const key = qrPairKey(link);
    const owners = key === undefined ? undefined : candidates.get(key);
    if (owners?.length === 1) siblingsPerLink.set(owners[0]!, [...(siblingsPerLink.get(owners[0]!) ?? []), index]);
  });
  // A link with two siblings (one per domain spelling, say) keeps none: which code was printed is unknown.
  for (const [owner, siblings] of siblingsPerLink) if (siblings.length === 1) pairs.set(owner, siblings[0]!);
  return pairs;
}
