import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { shortLinkApiTest } from '../shared/methods/credentialTest';
import { searchLinks } from '../shared/methods/listSearch';
import { DEFAULT_CREATED_WITHIN_DAYS, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES, MAX_CHOSEN_LINKS, MAX_CREATED_WITHIN_DAYS, MAX_WATCHED_LINKS } from '../core';
import { clicksPerDayProperties, pollClicksPerDay } from './clicksPerDay.poll';
import { pollLinkClicks } from './linkClicks.poll';
import { pollNewLinks } from './newLinks.poll';

const showFor = (event: string, more: Record<string, string[]> = {}) => ({ show: { event: [event], ...more } });

export class ShortLinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Short Link Trigger',
		name: 'shortLinkTrigger',
		icon: { light: 'file:../../icons/shortLink.svg', dark: 'file:../../icons/shortLink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "linkClicks" ? "Link clicks" : $parameter["event"] === "clicksPerDay" ? "Clicks per day" : "New link"}}',
		description: 'Starts the workflow when a new short link is created, when links get clicks or reach a click milestone, or once a day with each link\'s clicks',
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
					{
						name: 'Link Clicks',
						value: 'linkClicks',
						description: 'A link reached a click milestone, or got new clicks since the last poll',
					},
					{
						name: 'Clicks Per Day',
						value: 'clicksPerDay',
						description: 'A day closed (UTC): one item per watched link, or per campaign, with that day\'s clicks',
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
				displayOptions: showFor('newLink'),
				description: 'Where the trigger starts when it is activated. Changing it later starts over from the new setting.',
			},
			{
				displayName: 'Created Since',
				name: 'since',
				type: 'dateTime',
				required: true,
				default: '',
				displayOptions: showFor('newLink', { startFrom: ['since'] }),
				description: "Links created at or after this moment (in the workflow's time zone) trigger the workflow",
			},
			{
				displayName:
					`Each poll delivers up to ${DEFAULT_MAX_LINKS.toLocaleString('en-US')} new links (Max Links per Poll), oldest first, each once. A larger backlog (an import, a pause) is caught up over the next polls: the trigger reads the list down to where it stopped, then delivers the backlog oldest first, one batch per poll. A poll ends within about 45 seconds and skips its turn while the previous one still runs.`,
				name: 'howItWorksNotice',
				type: 'notice',
				default: '',
				displayOptions: showFor('newLink'),
			},
			{
				displayName: 'Fire On',
				name: 'clicksMode',
				type: 'options',
				noDataExpression: true,
				displayOptions: showFor('linkClicks'),
				options: [
					{
						name: 'Reached a Milestone',
						value: 'milestones',
						description: 'One item per link and milestone, once ever (also after restarts)',
					},
					{
						name: 'New Clicks',
						value: 'newClicks',
						description: 'One item per link whose click count grew since the last poll, with clicksBefore, clicks and newClicks',
					},
				],
				default: 'milestones',
			},
			{
				displayName: 'Milestones',
				name: 'milestonePresets',
				type: 'multiOptions',
				displayOptions: showFor('linkClicks', { clicksMode: ['milestones'] }),
				options: [
					{ name: '100 Clicks', value: '100' },
					{ name: '1,000 Clicks', value: '1000' },
					{ name: '10,000 Clicks', value: '10000' },
				],
				default: ['100', '1000'],
				description: 'Click counts that start the workflow once per link. Add your own below.',
			},
			{
				displayName: 'Custom Milestones',
				name: 'customMilestones',
				type: 'string',
				displayOptions: showFor('linkClicks', { clicksMode: ['milestones'] }),
				default: '',
				placeholder: 'e.g. 50, 250, 5000',
				description: 'More click counts, separated by commas (write 5000, not 5,000)',
			},
			{
				displayName: 'Watch',
				name: 'clicksScope',
				type: 'options',
				noDataExpression: true,
				displayOptions: showFor('linkClicks'),
				options: [
					{
						name: 'Links Created in the Last N Days',
						value: 'recent',
						description: 'The list is read from the newest link down to the first older one',
					},
					{ name: 'Chosen Links', value: 'chosen', description: 'Only the links picked below' },
				],
				default: 'recent',
			},
			{
				displayName: 'Created Within (Days)',
				name: 'createdWithinDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CREATED_WITHIN_DAYS },
				displayOptions: showFor('linkClicks', { clicksScope: ['recent'] }),
				default: DEFAULT_CREATED_WITHIN_DAYS,
				description: 'Links created this many days ago or later are watched',
			},
			{
				displayName: 'Links',
				name: 'chosenLinks',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Link',
				displayOptions: showFor('linkClicks', { clicksScope: ['chosen'] }),
				default: {},
				description: `The links to watch (at most ${MAX_CHOSEN_LINKS})`,
				options: [
					{
						displayName: 'Link',
						name: 'link',
						values: [
							{
								displayName: 'Link',
								name: 'link',
								type: 'resourceLocator',
								default: { mode: 'list', value: '' },
								required: true,
								description: 'A short link to watch',
								modes: [
									{
										displayName: 'From List',
										name: 'list',
										type: 'list',
										placeholder: 'Select a link...',
										typeOptions: { searchListMethod: 'searchLinks', searchable: true },
									},
									{
										displayName: 'By ID',
										name: 'id',
										type: 'string',
										placeholder: 'e.g. 1042',
										validation: [
											{ type: 'regex', properties: { regex: '^[0-9]+$', errorMessage: 'A link ID contains digits only, e.g. 1042' } },
										],
									},
								],
							},
						],
					},
				],
			},
			{
				displayName:
					`How it works: clicks are compared from poll to poll. The first poll only takes the counts as they are; a link that passes two milestones between polls gives both at once, and a link created and clicked between two polls counts from zero. Requests per poll: one per 100 links created in the last N days (an account that creates 500 links a month: 6 with the default 30 days; at most the newest ${MAX_WATCHED_LINKS.toLocaleString('en-US')} links are watched, 100 requests), or one per chosen link.`,
				name: 'clicksCostNotice',
				type: 'notice',
				default: '',
				displayOptions: showFor('linkClicks'),
			},
			...clicksPerDayProperties,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				displayOptions: showFor('newLink'),
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
		listSearch: { searchLinks },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event', 'newLink');
		if (event === 'linkClicks') return await pollLinkClicks(this);
		if (event === 'clicksPerDay') return await pollClicksPerDay(this);
		return await pollNewLinks(this);
	}
}
