import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';
import { linkItems, simplifyField } from '../simplify';

export const { option, description, execute } = n8nOperation(operationByKey('link.getAll'), {
	action: 'Get many links',
	summary: 'List links, newest first',
	overrides: {
		limit: { description: 'Max number of results to return', displayOptions: { show: { returnAll: [false] } } },
		returnAll: { description: 'Whether to return all results or only up to a given limit' },
	},
	hostProperties: [simplifyField],
	shape: linkItems,
});
