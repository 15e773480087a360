import { operationByKey } from '../../../core';
import { ADDITIONAL_FIELDS } from '../../../shared/form/layout';
import { n8nOperation } from '../../../shared/form/n8n-operation';

/** Idempotent shortening: "the same link" is the core's (target with UTM parameters, domain, slug when given). */
export const { option, description, execute } = n8nOperation(operationByKey('link.findOrCreate'), {
	action: 'Find or create a link',
	summary: 'Return the link a URL already has, creating it only if none exists (safe to rerun)',
	options: ADDITIONAL_FIELDS,
	placement: { reuseInactive: 'main' },
	overrides: {
		targetUrl: { hint: 'The link this URL (with the UTM parameters below) already has on the domain is returned; a new one is made only if none' },
	},
});
