/**
 * What agents and n8n's workflow builder read about the nodes (issue 29): the action node's tool variant has
 * its own description saying what writes and what is safe to repeat, the builder hint names a node that
 * exists, and the trigger stays out of the tool picker.
 */
import { ShortLink, ShortLinkTrigger } from './harness';

const action = new ShortLink().description;
const trigger = new ShortLinkTrigger().description;

test('the action node is usable as a tool in the object form, with a description for agents', () => {
	expect(typeof action.usableAsTool).toBe('object');
	const description = (action.usableAsTool as { replacements?: { description?: string } }).replacements?.description ?? '';
	expect(description).not.toBe(action.description);
	// Which operations write and which are safe to repeat: what an agent needs before it calls one.
	for (const words of ['Find or Create is safe to repeat: reruns make no duplicates', 'Create is not safe to repeat: every run makes another link', 'Delete is safe to repeat', 'only read']) {
		expect(description).toContain(words);
	}
	const resourceNames = (action.properties.find((property) => property.name === 'resource')?.options ?? []).map((option) => (option as { name: string }).name);
	for (const name of resourceNames) expect(description.toLowerCase()).toContain(name.toLowerCase());
});

test("the builder hint searches by a shortener's words and names the package's trigger as related", () => {
	expect(action.builderHint?.searchHint).toMatch(/URL shortener/);
	expect(action.builderHint?.searchHint).toMatch(/UTM/);
	expect(action.builderHint?.relatedNodes).toEqual([expect.objectContaining({ nodeType: `n8n-nodes-shortlink.${trigger.name}` })]);
});

test('the trigger stays out of the tool picker', () => {
	expect(trigger.usableAsTool).toBeUndefined();
});
