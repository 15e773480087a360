import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

export const { option, description, execute } = n8nOperation(operationByKey('link.delete'), {
	action: 'Delete a link',
	summary: 'Delete a link for good (a link already gone is no error)',
});
