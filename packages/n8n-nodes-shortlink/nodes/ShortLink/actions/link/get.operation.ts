import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';
import { linkItems, simplifyField } from '../simplify';

export const { option, description, execute } = n8nOperation(operationByKey('link.get'), {
	action: 'Get a link',
	summary: 'Get a link',
	hostProperties: [simplifyField],
	shape: linkItems,
});
