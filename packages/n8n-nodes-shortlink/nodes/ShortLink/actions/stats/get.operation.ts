import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

/** Every item carries the link's short URL and title, so a sheet row says which link it is about. */
export const { option, description, execute } = n8nOperation(operationByKey('stats.get'), {
	action: 'Get link statistics',
	summary: 'Get the click statistics of a link, whole or one item per day, country, device, browser or referrer',
	options: { name: 'dayOptions', displayName: 'Day Options', placeholder: 'Add Option' },
	overrides: {
		splitInto: { noDataExpression: true },
		dayOptions: { displayOptions: { show: { splitInto: ['day'] } } },
	},
});
