import { InputError } from '../../errors';
import { dateText } from '../link-fields';
import { dailyClicks, type DailyClicksOptions } from '../../stats/daily-clicks';
import type { FormReader } from '../../forms/form-values';
import type { LinkStats } from '../../types';
import { LINK_FIELD, readLinkId } from '../common-fields';
import type { Operation, OperationContext, OperationRecord } from '../operation';
import { outputWhen, type OutputField } from '../output';

/** Which list of the statistics becomes rows, and the column its label goes into. */
const SPLITS = {
  country: { list: 'topCountries', column: 'country' },
  device: { list: 'topDevices', column: 'device' },
  browser: { list: 'topBrowsers', column: 'browser' },
  referrer: { list: 'topReferrers', column: 'referrer' },
} as const;

type Split = 'none' | 'day' | keyof typeof SPLITS;

/** A top list of the statistics: each entry a name (a country, a device, …) and its clicks. */
function topList(key: string, label: string, item: string): OutputField {
  return {
    key,
    label,
    type: 'list',
    fields: [
      { key: 'label', label: item, type: 'string' },
      { key: 'clicks', label: `Clicks From This ${item}`, type: 'integer' },
    ],
  };
}

/** The fields of one row of a split per country, device, browser or referrer. */
function splitFields(split: keyof typeof SPLITS, item: string): OutputField[] {
  return outputWhen({ splitInto: [split] }, [
    { key: SPLITS[split].column, label: item, type: 'string' },
    { key: 'clicks', label: `Clicks From This ${item}`, type: 'integer' },
  ]);
}

const STATS_OUTPUT_FIELDS: readonly OutputField[] = [
  // Every row says which link it is about.
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'title', label: 'Title', type: 'string', nullable: true },
  { key: 'linkId', label: 'Link ID', type: 'string' },
  ...outputWhen({ splitInto: ['none'] }, [
    { key: 'totalClicks', label: 'Total Clicks Since Created', type: 'integer' },
    {
      key: 'clicksByDay',
      label: 'Clicks per Day',
      type: 'list',
      fields: [
        { key: 'date', label: 'Date', type: 'date' },
        { key: 'clicks', label: 'Clicks on That Date', type: 'integer' },
      ],
    },
    topList('topCountries', 'Top Countries', 'Country'),
    topList('topDevices', 'Top Devices', 'Device'),
    topList('topBrowsers', 'Top Browsers', 'Browser'),
    topList('topReferrers', 'Top Referrers', 'Referrer'),
  ]),
  ...outputWhen({ splitInto: ['day'] }, [
    { key: 'date', label: 'Date', type: 'date' },
    { key: 'clicks', label: 'Clicks on That Date', type: 'integer' },
  ]),
  ...splitFields('country', 'Country'),
  ...splitFields('device', 'Device'),
  ...splitFields('browser', 'Browser'),
  ...splitFields('referrer', 'Referrer'),
];

const PER_DAY = { splitInto: ['day'] };

const ABOUT_SAMPLE = { shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale', linkId: '1042' };

function readDays(form: FormReader, context: OperationContext): DailyClicksOptions {
  const day = (key: string) => {
    const value = dateText(form.raw(key));
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const days: DailyClicksOptions = {
    from: day('from'),
    to: day('to'),
    includeDaysWithoutClicks: form.flag('includeDaysWithoutClicks'),
    now: (context.now ?? Date.now)(),
    fromField: form.label('from'),
    toField: form.label('to'),
  };
  try {
    dailyClicks([], days); // checks the days before anything is sent
  } catch (error) {
    const key = error instanceof InputError ? (['from', 'to'] as const).find((candidate) => form.label(candidate) === error.field) : undefined;
    if (key !== undefined && error instanceof InputError) throw new InputError(key, error.message);
    throw error;
  }
  return days;
}

/**
 * Statistics of one link: all in one record, or one record per day, country, device, browser or referrer
 * (for sheets and charts). Every record carries the link's short URL and title, so a row says which link it
 * is about. With "Include Days Without Clicks", a link nobody clicked still gives a row per day.
 */
export const getStats: Operation = {
  key: 'stats.get',
  resource: 'stats',
  action: 'get',
  label: 'Get',
  description: 'Reads the click statistics of one short link: total clicks, clicks per day and the top countries, devices, browsers and referrers. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [
    LINK_FIELD,
    {
      key: 'splitInto',
      label: 'Output',
      kind: 'choice',
      group: 'main',
      default: 'none',
      help: 'One row per day, country, device, browser or referrer suits sheets and charts: each row holds the link, the day or name, and its clicks.',
      choices: [
        { value: 'none', label: 'All Statistics in One Item' },
        { value: 'browser', label: 'One Item per Browser' },
        { value: 'country', label: 'One Item per Country' },
        { value: 'day', label: 'One Item per Day' },
        { value: 'device', label: 'One Item per Device' },
        { value: 'referrer', label: 'One Item per Referrer' },
      ],
    },
    { key: 'from', label: 'From', kind: 'date', group: 'options', showWhen: PER_DAY, help: 'First day of the rows (per day only). Empty: the first day with clicks.' },
    { key: 'to', label: 'To', kind: 'date', group: 'options', showWhen: PER_DAY, help: 'Last day of the rows (per day only). Empty: the last day with clicks, or today when days without clicks are included.' },
    {
      key: 'includeDaysWithoutClicks',
      label: 'Include Days Without Clicks',
      kind: 'boolean',
      group: 'options',
      showWhen: PER_DAY,
      default: false,
      help: 'Whether to add a row with 0 clicks for every day nobody clicked (per day only), so that charts and sheets get every day.',
    },
  ],
  output: { count: 'many', fields: STATS_OUTPUT_FIELDS },
  sample: {
    records: [
      {
        ...ABOUT_SAMPLE,
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
    ],
  },
  async run(client, form, context) {
    const split = form.choice<Split>('splitInto') ?? 'none';
    const days = split === 'day' ? readDays(form, context) : undefined;
    const id = await readLinkId(client, form);
    // One after the other: when the link cannot be read, no statistics request is left running past the step.
    const link = await client.getLink(id);
    const stats = await client.getLinkStats(id);
    const about = { shortUrl: link.shortUrl, title: link.title ?? null, linkId: stats.linkId };
    return { records: statsRows(stats, split, days).map((row) => ({ ...about, ...row })) };
  },
};

function statsRows(stats: LinkStats, split: Split, days: DailyClicksOptions | undefined): OperationRecord[] {
  if (split === 'none') {
    const { linkId: _linkId, ...rest } = stats;
    return [rest];
  }
  if (split === 'day') return dailyClicks(stats.clicksByDay, days!).map((row) => ({ date: row.date, clicks: row.clicks }));
  const { list, column } = SPLITS[split];
  return (stats[list] as Array<{ label: string; clicks: number }>).map((row) => ({ [column]: row.label, clicks: row.clicks }));
}
