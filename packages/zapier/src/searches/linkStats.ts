import { searchStep } from '../adapter/step';

/** Line-item fields of a list of the statistics, labelled as a person reads them: "Country (Top Countries)". */
const listFields = (key: string, list: string, item: string) => [
  { key: `${key}[]label`, label: `${item} (${list})`, type: 'string' as const },
  { key: `${key}[]clicks`, label: `Clicks From This ${item} (${list})`, type: 'integer' as const },
];

/** Find Link Statistics: the core's stats.get, all statistics in one record (the lists as line items). */
export const linkStats = searchStep({
  key: 'link_stats',
  noun: 'Link Statistics',
  label: 'Find Link Statistics',
  description:
    'Finds the click statistics of one short link: total clicks since it was made, clicks per day and the top countries, devices, browsers and referrers. Changes nothing, so it is safe to repeat. Returns one result with the lists as line items, or nothing when the account has no such link.',
  operation: 'stats.get',
  output: { kind: 'list' },
  fixed: { splitInto: 'none' },
  notFoundIsEmpty: true,
  sample: {
    shortUrl: 'https://go.example.org/spring-sale',
    title: 'Spring sale',
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
  },
  outputFields: [
    { key: 'shortUrl', label: 'Short URL', type: 'string' },
    { key: 'title', label: 'Title', type: 'string' },
    { key: 'linkId', label: 'Link ID', type: 'string' },
    { key: 'totalClicks', label: 'Total Clicks Since Created', type: 'integer' },
    { key: 'clicksByDay[]date', label: 'Date (Clicks per Day)', type: 'string' },
    { key: 'clicksByDay[]clicks', label: 'Clicks on That Date (Clicks per Day)', type: 'integer' },
    ...listFields('topCountries', 'Top Countries', 'Country'),
    ...listFields('topDevices', 'Top Devices', 'Device'),
    ...listFields('topBrowsers', 'Top Browsers', 'Browser'),
    ...listFields('topReferrers', 'Top Referrers', 'Referrer'),
  ],
});
