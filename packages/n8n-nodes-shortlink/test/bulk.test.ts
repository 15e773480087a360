/**
 * A sheet-sized run: a few hundred Create items in one execution against a sandbox whose rate window
 * is scaled down (120 requests per 6 s instead of per 60 s). One client per execute() paces all items
 * by the RateLimit headers, so the run finishes without a single failed item.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';

import { runNode } from './harness';

const ITEMS = 300;
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 120, windowSeconds: 6 } });
});

afterAll(async () => {
	await sandbox.close();
});

it(`creates ${ITEMS} links in one run without a failed item`, async () => {
	const items = Array.from({ length: ITEMS }, (_, i) => ({ url: `https://example.org/bulk/${i}` }));
	const output = await runNode({
		credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
		continueOnFail: true,
		items,
		parameters: (i) => ({
			resource: 'link',
			operation: 'create',
			targetUrl: items[i].url,
			utm: { source: 'bulk', campaign: 'sheet' },
		}),
	});
	expect(output.filter((item) => item.json.error !== undefined).map((item) => item.json)).toEqual([]);
	expect(output).toHaveLength(ITEMS);
	expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
	expect(new Set(output.map((item) => item.json.id)).size).toBe(ITEMS);
	expect(output[ITEMS - 1].json.targetUrl).toBe(`https://example.org/bulk/${ITEMS - 1}?utm_source=bulk&utm_campaign=sheet`);
}, 90_000);
