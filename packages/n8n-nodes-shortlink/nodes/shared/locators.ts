import type { INodeProperties } from 'n8n-workflow';
import { LINK_ID_RULE, SHORT_URL_RULE } from '../core';

/** The link an operation works on: picked from a list (which shows each link's target), typed as an ID, or pasted as a short URL. */
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
					// The core's rule (readLinkId refuses the same), checked while people type.
					properties: { regex: LINK_ID_RULE.pattern, errorMessage: LINK_ID_RULE.message },
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
					properties: { regex: SHORT_URL_RULE.pattern, errorMessage: SHORT_URL_RULE.message },
				},
			],
		},
	],
};

/** Custom domain of a link; empty means the service's default domain. */
export const domainLocator: INodeProperties = {
	displayName: 'Domain',
	name: 'domain',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description: 'Verified custom domain for the short URL. Leave empty to use the default domain of the service.',
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
