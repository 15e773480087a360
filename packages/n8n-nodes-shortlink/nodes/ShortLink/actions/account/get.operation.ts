import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

export const { option, description, execute } = n8nOperation(operationByKey('account.get'), {
	action: 'Get the account',
	summary: 'Get the account of the API key with its plan and the usage of the current billing period',
});
