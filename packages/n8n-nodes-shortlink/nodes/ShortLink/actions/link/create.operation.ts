import { operationByKey } from '../../../core';
import { ADDITIONAL_FIELDS } from '../../../shared/form/layout';
import { n8nOperation } from '../../../shared/form/n8n-operation';

export const { option, description, execute } = n8nOperation(operationByKey('link.create'), {
	action: 'Create a link',
	summary: 'Shorten a URL: every run makes a new link (use Find or Create to reuse one)',
	options: ADDITIONAL_FIELDS,
	overrides: {
		targetUrl: { hint: 'Every run makes a new link, also for the same URL. To reuse the link a URL already has (safe reruns): Find or Create.' },
	},
});
