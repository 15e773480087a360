/**
 * The built node's transport on n8n's request helper (the harness follows redirects and keeps headers
 * unless told not to, as n8n does): no redirect is followed with the key, the Stop button ends a run that
 * waits for the rate limit or for a slow server, a huge answer is refused, and a create whose answer was
 * lost after it was stored is one link, reported as created.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { NodeApiError, sleep } from 'n8n-workflow';

import {
	startHugeAnswerServer,
	startRecordingServer,
	startRedirectingServer,
	startTricklingServer,
	serverPool,
} from '../../../test/support/hostile-servers';
import { locator, runNode } from './harness';

const testKeyValue = 'dummy-n8n-transport-key';
const { track, closeAll } = serverPool();
afterEach(closeAll);

const getLink = { resource: 'link', operation: 'get', link: locator('id', '42') };

describe('redirects', () => {
	it.each([302, 307])('a %i to another origin fails with its Location; the other origin never sees the key or the body', async (status) => {
		const other = await track(startRecordingServer('127.0.0.2'));
		const redirecting = await track(startRedirectingServer(other.origin, status));
		const credentials = { apiKey: testKeyValue, baseUrl: redirecting.origin };

		for (const parameters of [getLink, { resource: 'link', operation: 'create', targetUrl: 'https://example.org/x' }]) {
			const error = (await runNode({ credentials, parameters }).catch((e: unknown) => e)) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.description).toContain(`redirected to ${other.origin}/api/v1/links`);
		}
		expect(other.calls).toEqual([]);
	});
});

describe('the Stop button', () => {
	it('ends a bulk run that waits for the rate limit within seconds, with no error item per remaining row', async () => {
		const sandbox: Sandbox = await startSandbox({ rateLimit: { limit: 3, windowSeconds: 60 } });
		try {
			const controller = new AbortController();
			const items = Array.from({ length: 10 }, (_, i) => ({ url: `https://example.org/stop/${i}` }));
			void sleep(1_000).then(() => controller.abort());
			const started = Date.now();
			const outcome = await runNode({
				credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
				parameters: (i) => ({ resource: 'link', operation: 'create', targetUrl: items[i]!.url }),
				items,
				continueOnFail: true,
				cancelSignal: controller.signal,
			}).catch((e: unknown) => e);
			expect(Date.now() - started).toBeLessThan(10_000); // the window resets only after 60 s
			expect(outcome).toBeInstanceOf(Error);
			expect((outcome as Error).message).toMatch(/Cancelled/);
			expect(sandbox.links(sandbox.demoAccountId).filter((link) => link.targetUrl.includes('/stop/')).length).toBeLessThan(10);
		} finally {
			await sandbox.close();
		}
	});

	it('aborts a request to a server that trickles its answer', async () => {
		const trickling = await track(startTricklingServer(50));
		const controller = new AbortController();
		void sleep(500).then(() => controller.abort());
		const started = Date.now();
		const outcome = await runNode({ credentials: { apiKey: testKeyValue, baseUrl: trickling.origin }, parameters: getLink, cancelSignal: controller.signal }).catch(
			(e: unknown) => e,
		);
		expect(outcome).toBeInstanceOf(Error);
		expect((outcome as Error).message).toMatch(/Cancelled/);
		expect(Date.now() - started).toBeLessThan(10_000);
	});
});

describe('answer size', () => {
	it('a 30 MB answer is cut off while reading, with a clear error', async () => {
		const huge = await track(startHugeAnswerServer(30));
		const error = (await runNode({ credentials: { apiKey: testKeyValue, baseUrl: huge.origin }, parameters: { resource: 'link', operation: 'getAll', returnAll: false, limit: 5 } }).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toMatch(/larger than 10 MB/);
	});
});

describe('a create whose answer is lost after the link was stored', () => {
	it.each([
		['reset', { resetAfterRate: 1 }],
		['502', { serverErrorAfterRate: 1 }],
		['cut-off 201', { brokenBodyAfterRate: 1 }],
	] as const)('(%s) gives the stored link as the item, and the account holds it once', async (_name, fault) => {
		const sandbox = await startSandbox({ faults: { ...fault, afterFaultMethods: ['POST'] } });
		try {
			const [item] = await runNode({
				credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
				parameters: { resource: 'link', operation: 'create', targetUrl: 'https://example.org/lost-answer' },
			});
			const stored = sandbox.links(sandbox.demoAccountId).filter((link) => link.targetUrl === 'https://example.org/lost-answer');
			expect(stored).toHaveLength(1);
			expect(item!.json).toMatchObject({ id: stored[0]!.id, targetUrl: 'https://example.org/lost-answer' });
		} finally {
			await sandbox.close();
		}
	});
});
