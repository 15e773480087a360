import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator } from '../common.descriptions';
import { readLinkId } from '../helpers';

// Which list of the statistics becomes rows, and the column its label goes into.
const SPLITS = {
	day: { list: 'clicksByDay', column: 'date' },
	country: { list: 'topCountries', column: 'country' },
	device: { list: 'topDevices', column: 'device' },
	browser: { list: 'topBrowsers', column: 'browser' },
	referrer: { list: 'topReferrers', column: 'referrer' },
} as const;

type Split = 'none' | keyof typeof SPLITS;

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
];

const displayOptions = { show: { resource: ['stats'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const splitInto = this.getNodeParameter('splitInto', itemIndex, 'none') as Split;
	const stats = await client.getLinkStats(await readLinkId(this, client, itemIndex));
	if (splitInto === 'none') return [stats as unknown as IDataObject];

	const { list, column } = SPLITS[splitInto];
	const rows = stats[list] as Array<{ date?: string; label?: string; clicks: number }>;
	return rows.map((row) => ({
		linkId: stats.linkId,
		[column]: row.date ?? row.label,
		clicks: row.clicks,
	}));
}
