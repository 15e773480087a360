import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { createClient, isBodyStream, normalizeHeaders, readBodyText } from '../../core';
import type { ClientOptions, ShortLinkClient, Transport, TransportResponse } from '../../core';

/** Name of the credential type both nodes use (see credentials/ShortLinkApi.credentials.ts). */
export const CREDENTIAL_NAME = 'shortLinkApi';

export type { ShortLinkClient } from '../../core';

type HostContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;


/**
 * The body as text: n8n hands it over as a stream (encoding 'stream', so that the core's size cap applies
 * while reading); a host that already read it gives a string or parsed JSON, passed on as it is. The core
 * parses JSON text itself.
 */
async function readBody(body: unknown, maxBytes: number, signal: AbortSignal): Promise<unknown> {
	return isBodyStream(body) ? await readBodyText(body, maxBytes, signal) : body;
}

/**
 * The core's Transport on top of n8n's authenticated request helper. n8n adds the Authorization
 * header from the credential; HTTP statuses come back as data (ignoreHttpStatusErrors) so that the
 * core, not n8n's generic wrapper, turns problem+json answers into typed errors. The transport rules
 * (core transport.ts): n8n would follow a redirect and re-send the credential's header to the other
 * host, so disableFollowRedirect; its timeout only fires on an idle socket, so the core's signal also
 * goes along (it fires at the request's limit and on the Stop button); the body is read as a stream
 * so that an answer above the size cap is cut off instead of held in memory.
 */
export function n8nTransport(context: HostContext): Transport {
	return async (request) => {
		const options: IHttpRequestOptions = {
			method: request.method,
			url: request.url,
			headers: request.headers,
			json: true,
			encoding: 'stream',
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: request.timeoutMs,
			abortSignal: request.signal,
		};
		if (request.body !== undefined) options.body = request.body as IDataObject;
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
		const result: TransportResponse = {
			status: response.statusCode,
			headers: normalizeHeaders(response.headers),
			// n8n 2.x puts the execution's stop signal in place of abortSignal, so the request's own time limit
			// reaches axios only as its idle timeout; the body read ends at the limit itself.
			body: await readBody(response.body, request.maxResponseBytes, request.signal),
		};
		return result;
	};
}

/** The execution's stop signal (n8n 1.x hosts before it existed have none). */
function cancelSignal(context: HostContext): AbortSignal | undefined {
	const withSignal = context as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof withSignal.getExecutionCancelSignal === 'function' ? withSignal.getExecutionCancelSignal() : undefined;
}

/**
 * One client per execute()/poll()/search call: the core paces requests per client, so all items
 * of one run share the rate budget instead of each item starting afresh. `limits` narrows the client's
 * time limits (the trigger's poll must end well inside its interval).
 */
export async function createShortLinkClient(
	context: HostContext,
	limits: Pick<ClientOptions, 'callTimeoutMs'> = {},
): Promise<ShortLinkClient> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const options: ClientOptions = {
		baseUrl: String(credentials.baseUrl ?? ''),
		// n8n adds the Authorization header itself; the core gets the key only to scrub it from errors.
		apiKey: typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined,
		transport: n8nTransport(context),
		// n8n-workflow's sleep ends early when the signal fires (the Stop button).
		sleep: async (ms: number, signal?: AbortSignal) => await sleep(ms, signal),
	};
	const signal = cancelSignal(context);
	if (signal) options.signal = signal;
	if (limits.callTimeoutMs !== undefined) options.callTimeoutMs = limits.callTimeoutMs;
	return createClient(options);
}
