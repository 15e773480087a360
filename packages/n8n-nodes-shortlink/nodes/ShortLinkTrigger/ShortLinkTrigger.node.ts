import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { shortLinkApiTest } from '../shared/methods/credentialTest';
import { searchLinks } from '../shared/methods/listSearch';
import { N8N_TRIGGERS, TRIGGER_PROPERTIES, TRIGGER_SUBTITLE, triggerByEvent } from './form';
import { pollTrigger } from './poll';

export class ShortLinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Short Link Trigger',
		name: 'shortLinkTrigger',
		icon: { light: 'file:../../icons/shortLink.svg', dark: 'file:../../icons/shortLink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		description: 'Starts the workflow when a new short link is created, when links get clicks or reach a click milestone, or once a day with each link\'s clicks',
		defaults: { name: 'Short Link Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'shortLinkApi', required: true, testedBy: 'shortLinkApiTest' }],
		// Generated from the core's triggers (form.ts): the Event dropdown and each event's fields.
		properties: TRIGGER_PROPERTIES,
	};

	methods = {
		credentialTest: { shortLinkApiTest },
		listSearch: { searchLinks },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event', N8N_TRIGGERS[0]!.event) as string;
		const trigger = triggerByEvent(event);
		if (!trigger) throw new NodeOperationError(this.getNode(), `The event "${event}" is not supported`);
		return await pollTrigger(this, trigger);
	}
}
