/**
 * The columns of each report shape, in their order: the same names in a record, an n8n item, a Zapier line
 * item and the CSV header, so a sheet made from one run keeps its columns on every later run. Dates are
 * YYYY-MM-DD text, clicks and shares are numbers (share is a fraction: 0.25 is 25 %). `clicks` are the
 * visits of the link itself, `scans` those through its QR code (its QR sibling, reports/qr-sibling.ts),
 * added as the last column so that sheets made before keep their columns; a link and its QR code are one
 * row and count as one link.
 */

export type ReportShape = 'linkDay' | 'campaignDay' | 'campaignTotal' | 'linkTotal' | 'breakdown';
export type Breakdown = 'country' | 'device' | 'browser' | 'referrer';

export const REPORT_COLUMNS: Readonly<Record<ReportShape, readonly string[]>> = {
  linkDay: ['date', 'shortUrl', 'title', 'targetUrl', 'campaign', 'source', 'medium', 'linkId', 'clicks', 'scans'],
  campaignDay: ['date', 'campaign', 'links', 'clicks', 'scans'],
  campaignTotal: ['campaign', 'from', 'to', 'links', 'clicks', 'scans'],
  linkTotal: ['shortUrl', 'title', 'targetUrl', 'campaign', 'source', 'medium', 'linkId', 'from', 'to', 'clicks', 'scans'],
  breakdown: ['breakdown', 'value', 'clicks', 'share', 'period'],
};

/** What each shape's rows are, for the operation's help. */
export const SHAPE_HELP: Readonly<Record<ReportShape, string>> = {
  linkDay: 'One row per link per day, every day of the range included (0 on days without clicks)',
  campaignDay: 'One row per campaign per day: the clicks of all its links added up',
  campaignTotal: 'One row per campaign with its total clicks in the range',
  linkTotal: 'One row per link with its total clicks in the range',
  breakdown: 'One row per country, device, browser or referrer with its clicks and share — all time (see help)',
};

/** The label a campaign gets when a link's target has no utm_campaign. */
export const NO_CAMPAIGN = '(no campaign)';
/** The value of the breakdown row for clicks the service's top lists do not name. */
export const NOT_LISTED = '(not listed)';
/** The breakdown's period: the service gives its top lists for all time only. */
export const BREAKDOWN_PERIOD = 'all time';
