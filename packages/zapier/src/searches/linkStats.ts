import { defineSearch, type Bundle, type ZObject } from 'zapier-platform-core';
import { NotFoundError, type Link, type LinkStats } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { linkIdField, resolveLinkId } from '../fields/linkIdInput';

type CountedLabel = { label: string; clicks: number };

/** The leader of a top list (sorted by clicks, descending), or null/0 when the link has no clicks. */
function leader(list: CountedLabel[]): { label: string | null; clicks: number } {
  const first = list[0];
  return first ? { label: first.label, clicks: first.clicks } : { label: null, clicks: 0 };
}

/**
 * Later Zap steps map flat fields far more easily than lists, so the totals and each list's leader are
 * lifted to the top level; the full lists stay for steps that loop over them (Zapier line items).
 */
export function flattenStats(stats: LinkStats, link: Pick<Link, 'shortUrl' | 'title'>) {
  const lastDay = stats.clicksByDay[stats.clicksByDay.length - 1]; // days ascending: the latest is last
  const country = leader(stats.topCountries);
  const device = leader(stats.topDevices);
  const browser = leader(stats.topBrowsers);
  const referrer = leader(stats.topReferrers);
  return {
    shortUrl: link.shortUrl,
    title: link.title,
    id: stats.linkId,
    linkId: stats.linkId,
    totalClicks: stats.totalClicks,
    lastDay: lastDay?.date ?? null,
    clicksLastDay: lastDay?.clicks ?? 0,
    daysWithClicks: stats.clicksByDay.length,
    topCountry: country.label,
    topCountryClicks: country.clicks,
    topDevice: device.label,
    topDeviceClicks: device.clicks,
    topBrowser: browser.label,
    topBrowserClicks: browser.clicks,
    topReferrer: referrer.label,
    topReferrerClicks: referrer.clicks,
    clicksByDay: stats.clicksByDay,
    topCountries: stats.topCountries,
    topDevices: stats.topDevices,
    topBrowsers: stats.topBrowsers,
    topReferrers: stats.topReferrers,
  };
}

/**
 * A search: an unknown link is an empty answer (Zapier then stops the Zap or goes on, as the user chose),
 * not an error. The link is read too, so that the statistics carry its Short URL and Title.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const client = clientFor(z, bundle);
  try {
    // A short URL that no link has (the whole account searched) is an unknown link too.
    const id = await resolveLinkId(z, bundle);
    const link = await client.getLink(id);
    return [flattenStats(await client.getLinkStats(id), link)];
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
}

const sampleStats: LinkStats = {
  linkId: '1042',
  totalClicks: 57,
  clicksByDay: [
    { date: '2026-03-01', clicks: 21 },
    { date: '2026-03-02', clicks: 36 },
  ],
  topCountries: [{ label: 'DE', clicks: 30 }, { label: 'US', clicks: 27 }],
  topDevices: [{ label: 'mobile', clicks: 40 }, { label: 'desktop', clicks: 17 }],
  topBrowsers: [{ label: 'Chrome', clicks: 33 }, { label: 'Safari', clicks: 24 }],
  topReferrers: [{ label: 'direct', clicks: 31 }, { label: 'newsletter.example.org', clicks: 26 }],
};

/** Line-item fields of the lists (Zapier's `list[]field` keys), labelled as a person reads them: "Country (Top Countries)". */
const listFields = (key: string, list: string, item: string) => [
  { key: `${key}[]label`, label: `${item} (${list})`, type: 'string' as const },
  { key: `${key}[]clicks`, label: `Clicks (${list})`, type: 'integer' as const },
];

export const linkStats = defineSearch({
  key: 'link_stats',
  noun: 'Link Statistics',
  display: {
    label: 'Find Link Statistics',
    description: 'Finds the click statistics of a link: totals, the top country, device, browser and referrer, and the full lists.',
  },
  operation: {
    perform,
    inputFields: [linkIdField],
    sample: flattenStats(sampleStats, { shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale' }),
    outputFields: [
      { key: 'shortUrl', label: 'Short URL', type: 'string' },
      { key: 'title', label: 'Title', type: 'string' },
      { key: 'id', label: 'ID', type: 'string' },
      { key: 'linkId', label: 'Link ID', type: 'string' },
      { key: 'totalClicks', label: 'Total Clicks', type: 'integer' },
      { key: 'lastDay', label: 'Last Day With Clicks', type: 'string' },
      { key: 'clicksLastDay', label: 'Clicks On Last Day', type: 'integer' },
      { key: 'daysWithClicks', label: 'Days With Clicks', type: 'integer' },
      { key: 'topCountry', label: 'Top Country', type: 'string' },
      { key: 'topCountryClicks', label: 'Top Country Clicks', type: 'integer' },
      { key: 'topDevice', label: 'Top Device', type: 'string' },
      { key: 'topDeviceClicks', label: 'Top Device Clicks', type: 'integer' },
      { key: 'topBrowser', label: 'Top Browser', type: 'string' },
      { key: 'topBrowserClicks', label: 'Top Browser Clicks', type: 'integer' },
      { key: 'topReferrer', label: 'Top Referrer', type: 'string' },
      { key: 'topReferrerClicks', label: 'Top Referrer Clicks', type: 'integer' },
      { key: 'clicksByDay[]date', label: 'Day (Daily Clicks)', type: 'string' },
      { key: 'clicksByDay[]clicks', label: 'Clicks (Daily Clicks)', type: 'integer' },
      ...listFields('topCountries', 'Top Countries', 'Country'),
      ...listFields('topDevices', 'Top Devices', 'Device'),
      ...listFields('topBrowsers', 'Top Browsers', 'Browser'),
      ...listFields('topReferrers', 'Top Referrers', 'Referrer'),
    ],
  },
});
