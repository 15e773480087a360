import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { shortLinkApiTest } from '../ShortLink/methods/credentialTest';
import { DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES, pollNewLinks } from './newLinks.poll';

export class ShortLinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Short Link Trigger',
		name: 'shortLinkTrigger',
		icon: { light: 'file:../../icons/shortLink.svg', dark: 'file:../../icons/shortLink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'New link',
		description: 'Starts the workflow when a new short link is created',
		defaults: { name: 'Short Link Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'shortLinkApi', required: true, testedBy: 'shortLinkApiTest' }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Link',
						value: 'newLink',
						description: 'A link was created (in the dashboard, by the API or by another workflow)',
					},
				],
				default: 'newLink',
			},
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Links Only',
						value: 'newLinksOnly',
						description: 'The first poll only remembers where the list stands; links created after it trigger the workflow',
					},
					{
						name: 'Links Created Since a Date',
						value: 'since',
						description: 'The first polls also deliver the links created at or after a date, oldest first',
					},
				],
				default: 'newLinksOnly',
				description: 'Where the trigger starts when it is activated. Changing it later starts over from the new setting.',
			},
			{
				displayName: 'Created Since',
				name: 'since',
				type: 'dateTime',
				required: true,
				default: '',
				displayOptions: { show: { startFrom: ['since'] } },
				description: "Links created at or after this moment (in the workflow's time zone) trigger the workflow",
			},
			{
				displayName:
					`Each poll delivers up to ${DEFAULT_MAX_LINKS.toLocaleString('en-US')} new links (Max Links per Poll), oldest first, each once. A larger backlog (an import, a pause) is caught up over the next polls: the trigger reads the list down to where it stopped, then delivers the backlog oldest first, one batch per poll. A poll ends within about 45 seconds and skips its turn while the previous one still runs.`,
				name: 'howItWorksNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Max Links per Poll',
						name: 'maxLinks',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 10000 },
						default: DEFAULT_MAX_LINKS,
						description:
							'How many new links one poll delivers at most (one execution with that many items). More wait for the next polls, oldest first; none is skipped.',
					},
					{
						displayName: 'Max Requests per Poll',
						name: 'maxPages',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 1000 },
						default: DEFAULT_MAX_PAGES,
						description:
							'Upper bound of list requests (100 links each) one poll sends. A poll also stops after 30 seconds and leaves the last sixth of the rate limit to other workflows; it goes on where it stopped at the next poll.',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: { shortLinkApiTest },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollNewLinks(this);
	}
}
