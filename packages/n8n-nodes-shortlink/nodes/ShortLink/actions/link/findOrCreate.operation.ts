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
		targetUrl: { hint: 'An existing link to this URL (with the UTM parameters below) on the same domain is returned instead of creating a new one' },
	},
});
