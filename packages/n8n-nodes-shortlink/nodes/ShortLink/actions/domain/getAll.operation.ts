import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

export const { option, description, execute } = n8nOperation(operationByKey('domain.getAll'), {
	action: 'Get many domains',
	summary: 'List the verified custom domains of the account',
});
