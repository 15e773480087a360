/**
 * examples/shorten-campaign-sheet.json: it may reference only node types, versions, credentials and
 * parameters (names, option values, collection fields, locator modes) that exist in the built node's
 * description, n8n must find no parameter issues in it, and its Short Link step, fed with the sheet rows
 * of the example and with n8n's expression engine resolving `{{ $json... }}`, shortens them against the sandbox.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject, INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import example from '../examples/shorten-campaign-sheet.json';
import packageJson from '../package.json';
import { resolveItemParameters, runNode, ShortLink, ShortLinkTrigger } from './harness';

const descriptions: INodeTypeDescription[] = [new ShortLink().description, new ShortLinkTrigger().description];
const ourNodes = (example.nodes as unknown as INode[]).filter((node) => node.type.startsWith(`${packageJson.name}.`));

function isExpression(value: unknown): boolean {
	return typeof value === 'string' && value.startsWith('=');
}

/** Every key of `values` must be a property visible for these values, with an allowed value. */
function checkParameters(
	properties: INodeProperties[],
	values: IDataObject,
	root: INodeParameters,
	description: INodeTypeDescription,
	path: string,
	problems: string[],
): void {
	for (const [name, value] of Object.entries(values)) {
		const where = `${path}${name}`;
		const property = properties.find(
			(candidate) => candidate.name === name && NodeHelpers.displayParameter(root, candidate, { typeVersion: 1 }, description, root),
		);
		if (!property) {
			problems.push(`${where}: no such parameter here`);
			continue;
		}
		if (isExpression(value)) continue;
		if (property.type === 'options') {
			const allowed = (property.options ?? []).map((option) => (option as { value: unknown }).value);
			if (!allowed.includes(value)) problems.push(`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(allowed)}`);
		}
		if (property.type === 'collection') {
			checkParameters((property.options ?? []) as INodeProperties[], value as IDataObject, root, description, `${where}.`, problems);
		}
		if (property.type === 'resourceLocator') {
			const mode = (value as IDataObject).mode;
			if (!(property.modes ?? []).some((candidate) => candidate.name === mode)) problems.push(`${where}: unknown mode ${String(mode)}`);
		}
	}
}

describe('examples/shorten-campaign-sheet.json', () => {
	it('uses the Short Link node', () => {
		expect(ourNodes.length).toBeGreaterThan(0);
	});

	it.each(ourNodes.map((node) => [node.name, node] as const))('%s references only what the node describes', (_, node) => {
		const description = descriptions.find((candidate) => `${packageJson.name}.${candidate.name}` === node.type);
		expect(description).toBeDefined();
		if (!description) return;
		const versions = Array.isArray(description.version) ? description.version : [description.version];
		expect(versions).toContain(node.typeVersion);
		expect(Object.keys(node.credentials ?? {})).toEqual((description.credentials ?? []).map((credential) => credential.name));

		const problems: string[] = [];
		checkParameters(description.properties, node.parameters as IDataObject, node.parameters, description, '', problems);
		expect(problems).toEqual([]);
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
	});

	describe('runs its Short Link step on the sheet rows', () => {
		let sandbox: Sandbox;

		beforeAll(async () => {
			sandbox = await startSandbox();
		});

		afterAll(async () => {
			await sandbox.close();
		});

		it('shortens every row with its UTM parameters', async () => {
			const sheet = example.nodes.find((node) => node.type === 'n8n-nodes-base.set');
			const split = example.nodes.find((node) => node.type === 'n8n-nodes-base.splitOut');
			const shorten = ourNodes.find((node) => node.type === `${packageJson.name}.shortLink`);
			expect(sheet && split && shorten).toBeTruthy();
			const rows = JSON.parse(String(sheet?.parameters.jsonOutput))[String(split?.parameters.fieldToSplitOut)] as IDataObject[];

			const output = await runNode({
				credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
				items: rows,
				parameters: (i) => resolveItemParameters(shorten?.parameters ?? {}, rows, i),
			});
			expect(output).toHaveLength(rows.length);
			output.forEach((item, i) => {
				const target = new URL(String(item.json.targetUrl));
				expect(target.origin + target.pathname).toBe(new URL(String(rows[i].url)).origin + new URL(String(rows[i].url)).pathname);
				expect(target.searchParams.get('utm_source')).toBe(rows[i].source);
				expect(target.searchParams.get('utm_medium')).toBe(rows[i].medium);
				expect(target.searchParams.get('utm_campaign')).toBe(rows[i].campaign);
				expect(item.json.title).toBe(`${String(rows[i].campaign)} / ${String(rows[i].source)}`);
				expect(item.pairedItem).toEqual({ item: i });
			});
		});
	});
});
