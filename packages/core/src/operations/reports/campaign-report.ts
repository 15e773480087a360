/**
 * Campaign Report: the clicks of a campaign's links (or a domain's, or links created in a range, or chosen
 * links) over a range of days, as rows a spreadsheet takes as they are, with the totals beside them and,
 * when asked, the same table as a CSV file. Costs one walk over the account's links (one request per 100
 * links) plus one statistics request per link in the report.
 */
import { InputError } from '../../errors';
import { checkDay, serviceDay } from '../../basics/calendar-days';
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import { buildReport } from './build-report';
import { collectReport, MAX_REPORT_LINKS, TIME_LIMITED_MAX_REQUESTS } from './collect-report';
import { REPORT_COLUMNS, SHAPE_HELP, type Breakdown, type ReportShape } from './report-columns';
import { reportCsvFile } from './report-csv';
import { MAX_REPORT_DAYS, readDayRange, type DayRange } from './report-days';
import type { LinkSelection } from './link-selection';
import type { Operation, OperationResult } from '../operation';
import type { OutputField, OutputType } from '../output';

const SHAPES: ReportShape[] = ['linkDay', 'campaignDay', 'campaignTotal', 'linkTotal', 'breakdown'];
const SHAPE_LABELS: Record<ReportShape, string> = {
  linkDay: 'Clicks per Link and Day',
  campaignDay: 'Clicks per Campaign and Day',
  campaignTotal: 'Total per Campaign',
  linkTotal: 'Total per Link',
  breakdown: 'Countries, Devices, Browsers or Referrers',
};

/** Every column a report row may have, labelled once; a row has the columns of its shape (REPORT_COLUMNS). */
const COLUMN_LABELS: Readonly<Record<string, { label: string; type: OutputType }>> = {
  date: { label: 'Date', type: 'date' },
  shortUrl: { label: 'Short URL', type: 'string' },
  title: { label: 'Title', type: 'string' },
  targetUrl: { label: 'Target URL', type: 'string' },
  campaign: { label: 'Campaign', type: 'string' },
  source: { label: 'Source', type: 'string' },
  medium: { label: 'Medium', type: 'string' },
  linkId: { label: 'Link ID', type: 'string' },
  links: { label: 'Links', type: 'integer' },
  from: { label: 'From', type: 'date' },
  to: { label: 'To', type: 'date' },
  breakdown: { label: 'Breakdown', type: 'string' },
  value: { label: 'Value', type: 'string' },
  clicks: { label: 'Clicks', type: 'integer' },
  scans: { label: 'QR Scans', type: 'integer' },
  share: { label: 'Share of Clicks', type: 'number' },
  period: { label: 'Period', type: 'string' },
};

/** The row's fields: each column once, present for the shapes whose columns name it. */
const ROW_FIELDS: readonly OutputField[] = [...new Set(SHAPES.flatMap((shape) => REPORT_COLUMNS[shape]))].map((key) => ({
  key,
  ...COLUMN_LABELS[key]!,
  when: { shape: SHAPES.filter((shape) => REPORT_COLUMNS[shape].includes(key)) },
}));

const BREAKDOWN_ONLY = { shape: ['breakdown'] };

const SUMMARY_FIELDS: readonly OutputField[] = [
  { key: 'from', label: 'From', type: 'date' },
  { key: 'to', label: 'To', type: 'date' },
  { key: 'days', label: 'Days', type: 'integer' },
  { key: 'links', label: 'Links', type: 'integer' },
  { key: 'campaigns', label: 'Campaigns', type: 'integer' },
  { key: 'rows', label: 'Number of Rows', type: 'integer' },
  { key: 'clicks', label: 'Clicks in the Range', type: 'integer' },
  { key: 'scans', label: 'QR Scans in the Range', type: 'integer' },
  { key: 'breakdownPeriod', label: 'Breakdown Period', type: 'string', when: BREAKDOWN_ONLY },
  { key: 'allTimeClicks', label: 'Clicks of All Time', type: 'integer', when: BREAKDOWN_ONLY },
];

const columnsHelp = (shape: ReportShape) => `${SHAPE_HELP[shape]}. Columns: ${REPORT_COLUMNS[shape].join(', ')}.`;

export const CAMPAIGN_REPORT_FIELDS: readonly FormField[] = [
  {
    key: 'selectBy',
    label: 'Links',
    kind: 'choice',
    group: 'main',
    required: true,
    default: 'campaign',
    help: `Which links the report covers. At most ${MAX_REPORT_LINKS.toLocaleString('en-US')} links; each costs one request (plus one per 100 links of the account to find them), paced at the service's rate of 120 a minute. On Zapier a step has 25 seconds: a report there sends at most ${TIME_LIMITED_MAX_REQUESTS} requests and says what to narrow when it would need more.`,
    agentHelp: `Which links the report covers. At most ${MAX_REPORT_LINKS.toLocaleString('en-US')} links; each costs one request (plus one per 100 links of the account to find them), paced at the service's rate of 120 a minute, so a large report takes minutes: narrow it (a campaign, a domain, a date range) to answer sooner.`,
    choices: [
      { value: 'campaign', label: 'Of a Campaign', help: 'Links whose target URL carries this utm_campaign (optionally also this utm_source and utm_medium).' },
      { value: 'domain', label: 'On a Domain', help: 'Links on one of your custom domains, or on the default domain.' },
      { value: 'created', label: 'Created in a Date Range', help: 'Links created from one day to another (days in UTC).' },
      { value: 'chosen', label: 'Chosen Links', help: 'The links you name by ID or short URL.' },
      { value: 'all', label: 'All Links', help: 'Every link of the account (at most 1,000), e.g. for a report per campaign.' },
    ],
  },
  { key: 'campaign', label: 'Campaign', kind: 'text', group: 'main', required: true, showWhen: { selectBy: ['campaign'] }, placeholder: 'e.g. spring_sale', help: 'The utm_campaign of the links, exactly as in their target URLs (capitals count: "Spring" and "spring" are two campaigns, as in Google Analytics).' },
  { key: 'source', label: 'Source', kind: 'text', group: 'main', showWhen: { selectBy: ['campaign'] }, placeholder: 'e.g. newsletter', help: 'Only links with this utm_source. Leave empty for every source of the campaign.' },
  { key: 'medium', label: 'Medium', kind: 'text', group: 'main', showWhen: { selectBy: ['campaign'] }, placeholder: 'e.g. email', help: 'Only links with this utm_medium. Leave empty for every medium of the campaign.' },
  { key: 'domain', label: 'Domain', kind: 'domain', group: 'main', showWhen: { selectBy: ['domain'] }, placeholder: 'e.g. go.example.com', help: 'The custom domain of the links. Leave empty for links on the default domain.' },
  { key: 'createdFrom', label: 'Created From', kind: 'date', group: 'main', required: true, showWhen: { selectBy: ['created'] }, placeholder: 'e.g. 2026-03-01', help: 'The first day the links were created on (UTC).' },
  { key: 'createdTo', label: 'Created To', kind: 'date', group: 'main', showWhen: { selectBy: ['created'] }, placeholder: 'e.g. 2026-03-31', help: 'The last day the links were created on (UTC). Empty: up to today.' },
  { key: 'links', label: 'Chosen Links', kind: 'list', listOf: 'link', group: 'main', required: true, showWhen: { selectBy: ['chosen'] }, placeholder: 'e.g. 1042, https://sho.rt/spring-sale', help: 'IDs or short URLs of the links, separated by commas or one per line.' },
  {
    key: 'shape',
    label: 'Rows',
    kind: 'choice',
    group: 'main',
    default: 'linkDay',
    help: 'What one row is. Ready for a spreadsheet: dates as YYYY-MM-DD, clicks as numbers, the same columns in the same order on every run.',
    choices: SHAPES.map((shape) => ({ value: shape, label: SHAPE_LABELS[shape], help: columnsHelp(shape) })),
  },
  {
    key: 'breakdown',
    label: 'Breakdown',
    kind: 'choice',
    group: 'main',
    showWhen: { shape: ['breakdown'] },
    default: 'country',
    help: 'For "Countries, Devices, Browsers or Referrers": which one. The service counts these for a link\'s whole life, not per day, so these rows are all-time totals whatever the date range (the period column says "all time"); the report never splits them by day.',
    choices: [
      { value: 'country', label: 'Country' },
      { value: 'device', label: 'Device' },
      { value: 'browser', label: 'Browser' },
      { value: 'referrer', label: 'Referrer' },
    ],
  },
  { key: 'from', label: 'From', kind: 'date', group: 'main', placeholder: 'e.g. 2026-03-01', help: 'The first day of the report (days are UTC, the service\'s days). Empty: the last 7 complete days, yesterday included.' },
  { key: 'to', label: 'To', kind: 'date', group: 'main', placeholder: 'e.g. 2026-03-07', help: `The last day of the report (UTC). Empty: yesterday, the last complete day. At most ${MAX_REPORT_DAYS} days.` },
  { key: 'csvFile', label: 'Also Get a CSV File', kind: 'boolean', group: 'options', default: false, help: 'Adds the table as a CSV file (n8n: binary data "data"; Zapier: a file), for an email attachment or a Drive upload.', agentHelp: 'Adds the table as a CSV file beside the rows (an embedded resource of the result).' },
];

function readSelection(form: FormReader, now: number): LinkSelection {
  const by = form.choice<'campaign' | 'domain' | 'created' | 'chosen' | 'all'>('selectBy') ?? 'campaign';
  if (by === 'all') return { kind: 'all' };
  if (by === 'campaign') {
    const selection: LinkSelection = { kind: 'campaign', campaign: form.requiredText('campaign') };
    const source = form.text('source');
    const medium = form.text('medium');
    if (source !== undefined) selection.source = source;
    if (medium !== undefined) selection.medium = medium;
    return selection;
  }
  if (by === 'domain') return { kind: 'domain', domain: form.text('domain')?.toLowerCase() ?? null };
  if (by === 'created') {
    const from = form.requiredText('createdFrom');
    const to = form.text('createdTo') ?? serviceDay(now);
    return { kind: 'created', range: readCreatedRange(form, from, to) };
  }
  const links = [...new Set(form.list('links'))];
  if (links.length === 0) throw new InputError('links', `"${form.label('links')}" is required: name at least one link by ID or short URL.`);
  return { kind: 'chosen', links };
}

function readCreatedRange(form: FormReader, from: string, to: string): DayRange {
  // Any span: links created over years may still be clicked in the report's days.
  const range = { from: checkDay(from, `"${form.label('createdFrom')}"`), to: checkDay(to, `"${form.label('createdTo')}"`) };
  if (range.from > range.to) throw new InputError('createdFrom', `"${form.label('createdFrom')}" (${range.from}) must be on or before "${form.label('createdTo')}" (${range.to}).`);
  return range;
}

export const campaignReport: Operation = {
  key: 'report.campaign',
  resource: 'report',
  action: 'campaign',
  label: 'Campaign Report',
  description:
    "Reads the clicks of a campaign's links (or a domain's, links created in a date range, or chosen links) for a range of days.",
  returns: 'Returns spreadsheet rows — per link and day, per campaign and day, totals, or countries/devices/browsers/referrers — with the totals and, when asked, a CSV file.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: CAMPAIGN_REPORT_FIELDS,
  output: {
    count: 'many',
    fields: ROW_FIELDS,
    summary: SUMMARY_FIELDS,
    file: { label: 'CSV File', per: 'result', when: { csvFile: [true] }, mimeTypes: ['text/csv'] },
  },
  sample: {
    records: [
      { date: '2026-03-01', shortUrl: 'https://go.example.org/spring-mail', title: 'Spring mail', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale&utm_source=newsletter&utm_medium=email', campaign: 'spring_sale', source: 'newsletter', medium: 'email', linkId: '1042', clicks: 21, scans: 12 },
      { date: '2026-03-01', shortUrl: 'https://go.example.org/spring-fb', title: 'Spring social', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale&utm_source=facebook&utm_medium=social', campaign: 'spring_sale', source: 'facebook', medium: 'social', linkId: '1043', clicks: 0, scans: 0 },
    ],
    summary: { from: '2026-03-01', to: '2026-03-01', days: 1, links: 2, campaigns: 1, rows: 2, clicks: 21, scans: 12 },
  },
  async run(client, form, context): Promise<OperationResult> {
    const now = (context.now ?? Date.now)();
    const selection = readSelection(form, now);
    const range = readDayRange(form.text('from'), form.text('to'), now, { from: form.label('from'), to: form.label('to') });
    const shape = form.choice<ReportShape>('shape') ?? 'linkDay';
    const breakdown = form.choice<Breakdown>('breakdown') ?? 'country';
    const wantCsv = form.flag('csvFile');
    const collected = await collectReport(client, selection, {
      timeLimited: context.timeLimitMs !== undefined,
      selectionLabel: form.label('selectBy'),
      ...(context.onProgress ? { onProgress: context.onProgress } : {}),
      ...(context.deadlineAt !== undefined ? { deadlineAt: context.deadlineAt } : {}),
      ...(context.now ? { now: context.now } : {}),
    });
    const table = buildReport(collected.links, range, shape, breakdown);
    const result: OperationResult = { records: table.rows, summary: table.summary };
    if (wantCsv) result.files = [reportCsvFile(`campaign-report-${range.from}-to-${range.to}.csv`, table.columns, table.rows)];
    return result;
  },
};
