import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { dailyClicks, type DailyClicksOptions } from '../../../core';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator } from '../common.descriptions';
import { readDay, readLinkId } from '../helpers';

// Which list of the statistics becomes rows, and the column its label goes into.
const SPLITS = {
	country: { list: 'topCountries', column: 'country' },
	device: { list: 'topDevices', column: 'device' },
	browser: { list: 'topBrowsers', column: 'browser' },
	referrer: { list: 'topReferrers', column: 'referrer' },
} as const;

type Split = 'none' | 'day' | keyof typeof SPLITS;

const properties: INodeProperties[] = [
	linkLocator,
	{
		displayName: 'Output',
		name: 'splitInto',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'All Statistics in One Item', value: 'none' },
			{ name: 'One Item per Browser', value: 'browser' },
			{ name: 'One Item per Country', value: 'country' },
			{ name: 'One Item per Day', value: 'day' },
			{ name: 'One Item per Device', value: 'device' },
			{ name: 'One Item per Referrer', value: 'referrer' },
		],
		default: 'none',
		description:
			'One item per row suits spreadsheets and charts: each row holds the link ID, the day or label, and its clicks',
	},
	{
		displayName: 'Day Options',
		name: 'dayOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { splitInto: ['day'] } },
		options: [
			{
				displayName: 'From',
				name: 'from',
				type: 'dateTime',
				typeOptions: { dateOnly: true },
				default: '',
				description: 'First day of the output. Empty: the first day with clicks.',
			},
			{
				displayName: 'Include Days Without Clicks',
				name: 'includeDaysWithoutClicks',
				type: 'boolean',
				default: false,
				description:
					'Whether to add a row with 0 clicks for every day of the range nobody clicked, so that charts and sheets get every day',
			},
			{
				displayName: 'To',
				name: 'to',
				type: 'dateTime',
				typeOptions: { dateOnly: true },
				default: '',
				description:
					'Last day of the output. Empty: the last day with clicks, or today when days without clicks are included.',
			},
		],
	},
];

const displayOptions = { show: { resource: ['stats'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const splitInto = this.getNodeParameter('splitInto', itemIndex, 'none') as Split;
	const days = splitInto === 'day' ? readDayOptions(this, itemIndex) : undefined;
	const stats = await client.getLinkStats(await readLinkId(this, client, itemIndex));
	if (splitInto === 'none') return [stats as unknown as IDataObject];

	if (days) {
		const rows = dailyClicks(stats.clicksByDay, { ...days, now: Date.now() });
		return rows.map((row) => ({ linkId: stats.linkId, date: row.date, clicks: row.clicks }));
	}

	const { list, column } = SPLITS[splitInto as keyof typeof SPLITS];
	const rows = stats[list] as Array<{ label: string; clicks: number }>;
	return rows.map((row) => ({ linkId: stats.linkId, [column]: row.label, clicks: row.clicks }));
}

/** The per-day options, checked before the statistics are asked for (a range of no rows checks the days). */
function readDayOptions(context: IExecuteFunctions, itemIndex: number): Omit<DailyClicksOptions, 'now'> {
	const options = context.getNodeParameter('dayOptions', itemIndex, {}) as IDataObject;
	const days: Omit<DailyClicksOptions, 'now'> = {
		from: readDay(options.from, 'From'),
		to: readDay(options.to, 'To'),
		includeDaysWithoutClicks: options.includeDaysWithoutClicks === true,
		fromField: 'From',
		toField: 'To',
	};
	dailyClicks([], { ...days, now: Date.now() });
	return days;
}
