import { searchStep } from '../adapter/step';

/**
 * Campaign Report as line items (what "Create Multiple Spreadsheet Rows" consumes) with the totals as plain
 * fields beside them. A step has 25 s: the core refuses a report that needs more than 100 requests before
 * reading any statistics, saying what to narrow — never a part of the table.
 */
export const campaignReport = searchStep({
  key: 'campaign_report',
  noun: 'Report',
  label: 'Get Campaign Report',
  description:
    'Reads the clicks of a campaign\'s links (or a domain\'s, links created in a date range, chosen or all links) for a range of days. Changes nothing, so it is safe to repeat. Returns the rows as line items (per link and day, per campaign and day, totals, or countries/devices/browsers/referrers) with the totals, and a CSV file when asked.',
  operation: 'report.campaign',
  output: { kind: 'lineItems', key: 'rows' },
  sample: {
    from: '2026-03-01',
    to: '2026-03-07',
    days: 7,
    links: 2,
    campaigns: 1,
    clicks: 57,
    scans: 12,
    count: 2,
    rows: [
      { date: '2026-03-01', shortUrl: 'https://go.example.org/spring-mail', title: 'Spring mail', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale&utm_source=newsletter&utm_medium=email', campaign: 'spring_sale', source: 'newsletter', medium: 'email', linkId: '1042', clicks: 21, scans: 12 },
      { date: '2026-03-01', shortUrl: 'https://go.example.org/spring-fb', title: 'Spring social', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale&utm_source=facebook&utm_medium=social', campaign: 'spring_sale', source: 'facebook', medium: 'social', linkId: '1043', clicks: 0, scans: 0 },
    ],
  },
  outputFields: [
    { key: 'from', label: 'From', type: 'string' },
    { key: 'to', label: 'To', type: 'string' },
    { key: 'days', label: 'Days', type: 'integer' },
    { key: 'links', label: 'Links', type: 'integer' },
    { key: 'campaigns', label: 'Campaigns', type: 'integer' },
    { key: 'clicks', label: 'Clicks in the Range', type: 'integer' },
    { key: 'scans', label: 'QR Scans in the Range', type: 'integer' },
    { key: 'count', label: 'Number of Rows', type: 'integer' },
    { key: 'file', label: 'CSV File', type: 'string' },
    { key: 'rows[]date', label: 'Date (Rows)', type: 'string' },
    { key: 'rows[]shortUrl', label: 'Short URL (Rows)', type: 'string' },
    { key: 'rows[]title', label: 'Title (Rows)', type: 'string' },
    { key: 'rows[]targetUrl', label: 'Target URL (Rows)', type: 'string' },
    { key: 'rows[]campaign', label: 'Campaign (Rows)', type: 'string' },
    { key: 'rows[]source', label: 'Source (Rows)', type: 'string' },
    { key: 'rows[]medium', label: 'Medium (Rows)', type: 'string' },
    { key: 'rows[]linkId', label: 'Link ID (Rows)', type: 'string' },
    { key: 'rows[]links', label: 'Links (Rows)', type: 'integer' },
    { key: 'rows[]clicks', label: 'Clicks (Rows)', type: 'integer' },
    { key: 'rows[]scans', label: 'QR Scans (Rows)', type: 'integer' },
  ],
});
