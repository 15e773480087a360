import { searchStep } from '../adapter/step';

/**
 * Find Daily Clicks: the core's stats.get with one record per day, as line items (a weekly click report
 * into a sheet). With Include Days Without Clicks, a link nobody clicked still gives a row per day.
 */
export const dailyClicks = searchStep({
  key: 'daily_clicks',
  noun: 'Daily Clicks',
  label: 'Find Daily Clicks of Link',
  description:
    'Finds how many clicks one short link got on each day, optionally between two dates and with days without clicks as 0. Changes nothing, so it is safe to repeat. Returns one line item per day (date and clicks on that date), or nothing when no day matches.',
  operation: 'stats.get',
  output: { kind: 'lineItems', key: 'days' },
  fixed: { splitInto: 'day' },
  notFoundIsEmpty: true,
  sample: {
    count: 2,
    days: [
      { shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale', linkId: '1042', date: '2026-03-01', clicks: 21 },
      { shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale', linkId: '1042', date: '2026-03-02', clicks: 36 },
    ],
  },
  outputFields: [
    { key: 'count', label: 'Number of Days', type: 'integer' },
    { key: 'days[]date', label: 'Date (Days)', type: 'string' },
    { key: 'days[]clicks', label: 'Clicks on That Date (Days)', type: 'integer' },
    { key: 'days[]shortUrl', label: 'Short URL (Days)', type: 'string' },
    { key: 'days[]title', label: 'Title (Days)', type: 'string' },
    { key: 'days[]linkId', label: 'Link ID (Days)', type: 'string' },
  ],
});
