import type { INodeProperties } from 'n8n-workflow';

/** The link an operation works on: picked from a list, typed as an ID, or pasted as a short URL. */
export const linkLocator: INodeProperties = {
	displayName: 'Link',
	name: 'link',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The short link to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a link...',
			typeOptions: {
				searchListMethod: 'searchLinks',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1042',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^[0-9]+$',
						errorMessage: 'A link ID contains digits only, e.g. 1042',
					},
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://sho.rt/spring-sale',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^https?://[^\\s/]+/[^\\s]+$',
						errorMessage: 'Enter the full short URL, e.g. https://sho.rt/spring-sale',
					},
				},
			],
		},
	],
};

/** Custom domain of a new link; empty means the service's default domain. */
export const domainLocator: INodeProperties = {
	displayName: 'Domain',
	name: 'domain',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'Verified custom domain for the short URL. Leave empty to use the default domain of the service.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Default domain',
			typeOptions: {
				searchListMethod: 'searchDomains',
				searchable: true,
			},
		},
		{
			displayName: 'By Hostname',
			name: 'hostname',
			type: 'string',
			placeholder: 'e.g. go.example.org',
		},
	],
};

/** UTM parameters appended to the target URL with the core's buildCampaignUrl. */
export const utmCollection: INodeProperties = {
	displayName: 'UTM Parameters',
	name: 'utm',
	type: 'collection',
	placeholder: 'Add UTM Parameter',
	default: {},
	description:
		'Campaign parameters added to the target URL before the link is saved; existing parameters of the same name are replaced',
	options: [
		{
			displayName: 'Campaign',
			name: 'campaign',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring_sale',
			description: 'Name of the campaign or promotion (utm_campaign)',
		},
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			default: '',
			placeholder: 'e.g. header_banner',
			description: 'Tells apart links or ads that point to the same URL (utm_content)',
		},
		{
			displayName: 'Medium',
			name: 'medium',
			type: 'string',
			default: '',
			placeholder: 'e.g. email',
			description: 'Marketing medium, such as email, cpc or social (utm_medium)',
		},
		{
			displayName: 'Source',
			name: 'source',
			type: 'string',
			default: '',
			placeholder: 'e.g. newsletter',
			description: 'Where the traffic comes from, such as newsletter or google (utm_source)',
		},
		{
			displayName: 'Term',
			name: 'term',
			type: 'string',
			default: '',
			placeholder: 'e.g. running+shoes',
			description: 'Paid search keyword (utm_term)',
		},
	],
};

/** Optional fields of a new link, shared by Create and Find or Create. */
export const newLinkOptions: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description: 'When the short URL stops redirecting. Empty means never.',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Visitors must enter this password (4 to 128 characters) before the redirect',
		},
		{
			displayName: 'Slug',
			name: 'slug',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring-sale',
			description:
				'Path of the short URL after the domain: letters, digits, "-" and "_". Empty lets the service choose one.',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			placeholder: 'e.g. Spring sale newsletter',
			description: 'A label to recognise the link by',
		},
	],
};

export const targetUrlField: INodeProperties = {
	displayName: 'Target URL',
	name: 'targetUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.org/spring-sale',
	description: 'The page the short URL redirects to (absolute http or https URL)',
};

/** n8n's UX rule for answers of more than 10 fields (a link has 12); off by default so that every operation returns the link as Get does. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	hint: 'Ten fields: ID, short URL, target URL, title, slug, domain, clicks, active, expires at, created at',
};
