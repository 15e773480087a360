import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { jsonParse, sleep } from 'n8n-workflow';
import { createClient } from '@shortlink/core/portable';
import type { ShortLinkClient, Transport, TransportResponse } from '@shortlink/core/portable';

/** Name of the credential type both nodes use (see credentials/ShortLinkApi.credentials.ts). */
export const CREDENTIAL_NAME = 'shortLinkApi';

export type { ShortLinkClient } from '@shortlink/core/portable';

type HostContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

function lowerCaseHeaders(headers: IDataObject | undefined): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (value === undefined || value === null) continue;
		result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return result;
}

// n8n parses JSON bodies itself; a proxy's HTML page or an empty 204 arrive as text and stay text.
function readBody(body: unknown): unknown {
	if (typeof body !== 'string' || body.trim() === '') return body;
	return jsonParse(body, { fallbackValue: body });
}

/**
 * The core's Transport on top of n8n's authenticated request helper. n8n adds the Authorization
 * header from the credential; HTTP statuses come back as data (ignoreHttpStatusErrors) so that the
 * core, not n8n's generic wrapper, turns problem+json answers into typed errors.
 */
export function n8nTransport(context: HostContext): Transport {
	return async (request) => {
		const options: IHttpRequestOptions = {
			method: request.method,
			url: request.url,
			headers: request.headers,
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		};
		if (request.body !== undefined) options.body = request.body as IDataObject;
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
		const result: TransportResponse = {
			status: response.statusCode,
			headers: lowerCaseHeaders(response.headers),
			body: readBody(response.body),
		};
		return result;
	};
}

/**
 * One client per execute()/poll()/search call: the core paces requests per client, so all items
 * of one run share the rate budget instead of each item starting afresh.
 */
export async function createShortLinkClient(context: HostContext): Promise<ShortLinkClient> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	return createClient({
		baseUrl: String(credentials.baseUrl ?? ''),
		// n8n adds the Authorization header itself; the core gets the key only to scrub it from errors.
		apiKey: typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined,
		transport: n8nTransport(context),
		sleep: async (ms: number) => await sleep(ms),
	});
}
