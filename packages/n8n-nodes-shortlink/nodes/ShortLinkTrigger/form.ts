/**
 * The Short Link Trigger's form, generated from the core's triggers: the Event dropdown (one choice per
 * trigger the exposure table offers on n8n), each trigger's fields shown for its event, and what a poll does
 * and costs as a notice. Labels, help, rules and conditions are the core's.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { firstSentence, isOffered, triggerExposureOf, TRIGGERS, type Trigger } from '../core';

import type { FormLayout } from '../shared/form/layout';
import { formProperties } from '../shared/form/properties';

/** Every event's options go into one collection named as n8n users know it. */
export const TRIGGER_LAYOUT: FormLayout = {};

export const N8N_TRIGGERS: readonly Trigger[] = TRIGGERS.filter((trigger) => isOffered(triggerExposureOf(trigger).n8n));

function eventOf(trigger: Trigger): string {
	const exposure = triggerExposureOf(trigger).n8n;
	return isOffered(exposure) ? exposure.event : trigger.event;
}

export function triggerByEvent(event: string): Trigger | undefined {
	return N8N_TRIGGERS.find((trigger) => eventOf(trigger) === event);
}

function propertiesOf(trigger: Trigger): INodeProperties[] {
	const notice: INodeProperties[] = trigger.notice ? [{ displayName: trigger.notice, name: `${eventOf(trigger)}Notice`, type: 'notice', default: '' }] : [];
	return updateDisplayOptions({ show: { event: [eventOf(trigger)] } }, [...formProperties(trigger.fields, TRIGGER_LAYOUT), ...notice]);
}

export const TRIGGER_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: N8N_TRIGGERS.map((trigger) => ({ name: trigger.label, value: eventOf(trigger), description: firstSentence(trigger.description) })),
		default: eventOf(N8N_TRIGGERS[0]!),
	},
	...N8N_TRIGGERS.flatMap(propertiesOf),
];

/** The event's name under the node's title. */
export const TRIGGER_SUBTITLE = `={{ ${JSON.stringify(Object.fromEntries(N8N_TRIGGERS.map((trigger) => [eventOf(trigger), trigger.label])))}[$parameter["event"]] }}`;
