import { InputError } from '../../errors';
import { dateText } from '../link-fields';
import { dailyClicks, type DailyClicksOptions } from '../../stats/daily-clicks';
import type { FormReader } from '../../forms/form-values';
import type { LinkStats } from '../../types';
import { LINK_FIELD, readLinkId } from '../common-fields';
import type { Operation, OperationContext, OperationRecord } from '../operation';

/** Which list of the statistics becomes rows, and the column its label goes into. */
const SPLITS = {
  country: { list: 'topCountries', column: 'country' },
  device: { list: 'topDevices', column: 'device' },
  browser: { list: 'topBrowsers', column: 'browser' },
  referrer: { list: 'topReferrers', column: 'referrer' },
} as const;

type Split = 'none' | 'day' | keyof typeof SPLITS;

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
    { key: 'from', label: 'From', kind: 'date', group: 'options', help: 'First day of the rows (per day only). Empty: the first day with clicks.' },
    { key: 'to', label: 'To', kind: 'date', group: 'options', help: 'Last day of the rows (per day only). Empty: the last day with clicks, or today when days without clicks are included.' },
    {
      key: 'includeDaysWithoutClicks',
      label: 'Include Days Without Clicks',
      kind: 'boolean',
      group: 'options',
      default: false,
      help: 'Whether to add a row with 0 clicks for every day nobody clicked (per day only), so that charts and sheets get every day.',
    },
  ],
  async run(client, form, context) {
    const split = form.choice<Split>('splitInto') ?? 'none';
    const days = split === 'day' ? readDays(form, context) : undefined;
    const id = await readLinkId(client, form);
    const [link, stats] = await Promise.all([client.getLink(id), client.getLinkStats(id)]);
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
