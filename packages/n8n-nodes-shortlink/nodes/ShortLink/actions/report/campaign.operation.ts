import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

const when = (selectBy: string) => ({ displayOptions: { show: { selectBy: [selectBy] } } });

/**
 * Campaign Report: one item per row, ready for Google Sheets' Append (the same columns on every run); the
 * CSV file, when asked, comes as one more item with the totals and the file as binary data "data".
 * The Stop button ends it at once (the client's stop signal).
 */
export const { option, description, execute } = n8nOperation(operationByKey('report.campaign'), {
	action: 'Get a campaign report',
	summary: 'Get the clicks of a campaign\'s links per day, per campaign or per link, ready for a spreadsheet',
	overrides: {
		selectBy: { noDataExpression: true },
		shape: { noDataExpression: true },
		campaign: { ...when('campaign'), required: true },
		source: when('campaign'),
		medium: when('campaign'),
		domain: when('domain'),
		createdFrom: { ...when('created'), required: true },
		createdTo: when('created'),
		links: { ...when('chosen'), required: true },
		breakdown: { displayOptions: { show: { shape: ['breakdown'] } } },
	},
});
