import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { NewLinksState } from '../core';

import { shortLinkApiTest } from '../ShortLink/methods/credentialTest';
import { createShortLinkClient } from '../ShortLink/transport/client';
import { toNodeError } from '../ShortLink/transport/errors';

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
				displayName:
					'The first poll only remembers where the list stands; links created after it trigger the workflow, oldest first',
				name: 'firstPollNotice',
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
						displayName: 'Max Pages per Poll',
						name: 'maxPages',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 50 },
						default: 5,
						description:
							'Upper bound of list requests per poll. A larger burst of new links is delivered over the next polls, nothing is skipped.',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: { shortLinkApiTest },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const maxPages = typeof options.maxPages === 'number' ? options.maxPages : 5;
		try {
			const client = await createShortLinkClient(this);

			// A manual test shows the newest link as a sample and leaves the mark where it is.
			if (this.getMode() === 'manual') {
				const page = await client.listLinks({ limit: 1 });
				return page.links.length > 0 ? [this.helpers.returnJsonArray(page.links as unknown as IDataObject[])] : null;
			}

			const staticData = this.getWorkflowStaticData('node');
			const result = await client.pollNewLinks(staticData.newLinks as NewLinksState | undefined, { maxPages });
			staticData.newLinks = result.state as unknown as IDataObject;
			if (result.links.length === 0) return null;
			return [this.helpers.returnJsonArray(result.links as unknown as IDataObject[])];
		} catch (error) {
			throw toNodeError(this.getNode(), error);
		}
	}
}
