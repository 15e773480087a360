import { operationByKey, UTM_FIELDS } from '../../../core';
import { UPDATE_FIELDS } from '../../../shared/form/layout';
import { n8nOperation } from '../../../shared/form/n8n-operation';

// n8n shows no hint on a collection (and a notice is a yellow warning box): the hint goes on each UTM field.
const utmHints = Object.fromEntries(UTM_FIELDS.map((field) => [field.key, { hint: "Added to the new target URL, or to the link's current one" }]));

export const { option, description, execute } = n8nOperation(operationByKey('link.update'), {
	action: 'Update a link',
	summary: 'Change a link',
	options: UPDATE_FIELDS,
	overrides: {
		...utmHints,
		active: { default: true },
		utm: {
			description:
				"Campaign parameters added to the new target URL, or to the link's current one when no new target URL is set; existing parameters of the same name are replaced",
		},
	},
});
