import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { createClient, createFetchTransport, ShortLinkError } from '../../core';

import { descriptionOf } from '../transport/errors';

/**
 * Tests a Short Link API credential through the core, with exactly the rules the nodes apply: the Base URL
 * must be https (http only on this machine), carry no user name or password and no API path, and no
 * redirect is followed with the key. A declarative `test` request would skip all of that and send the key
 * wherever the Base URL points, in clear text too, the moment the credential is saved.
 *
 * n8n gives a credential test only its deprecated `request` helper, so the request goes through the
 * core's fetch transport (the same transport rules as every other transport).
 */
export async function shortLinkApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	try {
		const client = createClient({
			baseUrl: String(data.baseUrl ?? ''),
			apiKey,
			transport: createFetchTransport({ apiKey }),
			sleep: async (ms: number, signal?: AbortSignal) => await sleep(ms, signal),
			// The editor waits for this answer: no long rate-limit waits or retries.
			callTimeoutMs: 15_000,
			requestTimeoutMs: 10_000,
			maxRetries: 1,
			maxWaitMs: 5_000,
		});
		await client.getAccount();
		return { status: 'OK', message: 'Connection successful' };
	} catch (error) {
		// The node's own words for the same failure (its error description), e.g. "The API key is invalid or
		// revoked." for a 401; the core's sentences carry no key. Anything else is a bug worth showing.
		const message = error instanceof ShortLinkError ? descriptionOf(error) : `The test failed: ${(error as Error).message}`;
		return { status: 'Error', message };
	}
}
