import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

// The one definition shared with the Zapier app; esbuild inlines it into dist.
import { shortLinkCredential } from '../nodes/core';

const { apiKey, baseUrl, utmPresets } = shortLinkCredential.fields;

export class ShortLinkApi implements ICredentialType {
	// name, displayName and documentationUrl are literals so n8n's lint rules can read them; a test checks
	// that they equal the shared definition.
	name = 'shortLinkApi';

	displayName = 'Short Link API';

	icon: Icon = { light: 'file:../icons/shortLink.svg', dark: 'file:../icons/shortLink.dark.svg' };

	documentationUrl =
		'https://github.com/shortlink-integrations/shortlink-integrations/blob/main/packages/n8n-nodes-shortlink/README.md#credentials';

	properties: INodeProperties[] = [
		{
			displayName: apiKey.label,
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: apiKey.help,
		},
		{
			displayName: baseUrl.label,
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			description: baseUrl.help,
		},
		{
			// The team's presets live with the account's credential: every workflow on it tags alike.
			displayName: utmPresets.label,
			name: 'utmPresets',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			placeholder: utmPresets.placeholder,
			description: utmPresets.help,
		},
	];

	// n8n resolves the expression per request to the header authorizationHeader() builds (a test checks).
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey.trim()}}',
			},
		},
	};

	// No declarative `test` request: it would send the key wherever the Base URL points without the nodes'
	// rules. Both nodes test this credential through the core (testedBy: shortLinkApiTest).
}
