/**
 * A hand-built n8n host for the BUILT package (dist/, what users install): IExecuteFunctions,
 * IPollFunctions and ILoadOptionsFunctions whose httpRequestWithAuthentication applies the credential's
 * `authenticate` with n8n's own expression engine and sends the request with axios exactly as n8n-core's
 * httpRequest converts IHttpRequestOptions (Accept for json, body only when not empty, validateStatus for
 * ignoreHttpStatusErrors, { body, headers, statusCode } for returnFullResponse).
 */
import axios from 'axios';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeTypeDescription,
	IPairedItemData,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeHelpers, Workflow } from 'n8n-workflow';

type NodeModule = typeof import('../nodes/ShortLink/ShortLink.node');
type TriggerModule = typeof import('../nodes/ShortLinkTrigger/ShortLinkTrigger.node');
type CredentialModule = typeof import('../credentials/ShortLinkApi.credentials');

// jest.requireActual loads plain CommonJS from dist without transforming it.
export const { ShortLink } = jest.requireActual<NodeModule>('../dist/nodes/ShortLink/ShortLink.node.js');

// Executions of one worker share what they learn of the key's rate limit (the core's process-shared state);
// every test here stands for a new process, with a service stand-in of its own.
const bundledCore = jest.requireActual<{ forgetProcessShared(): void }>('../dist/shared/core.js');
beforeEach(() => bundledCore.forgetProcessShared());
/** Forgets what the executions of this "process" shared, as a new worker process starts with nothing. */
export const forgetBundledProcessShared = (): void => bundledCore.forgetProcessShared();
export const { ShortLinkTrigger } = jest.requireActual<TriggerModule>(
	'../dist/nodes/ShortLinkTrigger/ShortLinkTrigger.node.js',
);
export const { ShortLinkApi } = jest.requireActual<CredentialModule>(
	'../dist/credentials/ShortLinkApi.credentials.js',
);

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	/** The credential's UTM Presets field (the team's presets and rules), when set. */
	utmPresets?: string;
}

/** Every request as n8n would hand it to axios, after authentication (for assertions). */
export type SentRequest = IHttpRequestOptions;

const credentialType = new ShortLinkApi();

// n8n resolves credential expressions through a Workflow; a one-node workflow is enough for that.
const expressionNode: INode = {
	id: 'expression-node',
	name: 'Expression Node',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const expressionWorkflow = new Workflow({
	nodes: [expressionNode],
	connections: {},
	active: false,
	nodeTypes: {
		getByName: () => ({ description: { properties: [] } }) as never,
		getByNameAndVersion: () => ({ description: { properties: [] } }) as never,
		getKnownTypes: () => ({}),
	},
});

/** Resolves one credential expression the way n8n's CredentialsHelper does. */
export function resolveCredentialExpression(value: string, credentials: TestCredentials): string {
	const data = credentials as unknown as ICredentialDataDecryptedObject;
	return String(
		expressionWorkflow.expression.getParameterValue(
			value,
			null,
			0,
			0,
			expressionNode.name,
			[],
			'internal',
			{ $credentials: data },
			undefined,
			false,
			data,
		),
	);
}

/** Resolves a node's parameters for one input item the way n8n does ($json = that item's json). */
export function resolveItemParameters(parameters: INodeParameters, items: IDataObject[], itemIndex: number): INodeParameters {
	const connectionInputData = items.map((json) => ({ json }));
	return expressionWorkflow.expression.getParameterValue(
		parameters,
		null,
		0,
		itemIndex,
		expressionNode.name,
		connectionInputData,
		'manual',
		{},
	) as INodeParameters;
}

/** The credential's generic `authenticate`, merged into the request as n8n does. */
export function authenticate(options: IHttpRequestOptions, credentials: TestCredentials): IHttpRequestOptions {
	const result: IHttpRequestOptions = { ...options, headers: { ...(options.headers ?? {}) } };
	const auth = credentialType.authenticate;
	for (const [outerKey, values] of Object.entries(auth.properties)) {
		const target = ((result as unknown as IDataObject)[outerKey] ?? {}) as IDataObject;
		for (const [key, value] of Object.entries(values as IDataObject)) {
			target[resolveCredentialExpression(key, credentials)] = resolveCredentialExpression(String(value), credentials);
		}
		(result as unknown as IDataObject)[outerKey] = target;
	}
	return result;
}

function hasHeader(headers: IDataObject, name: string): boolean {
	return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** n8n-core's httpRequest, reduced to what the options in use here need. */
export async function n8nHttpRequest(options: IHttpRequestOptions) {
	const headers: IDataObject = { ...(options.headers ?? {}) };
	const method = options.method ?? 'GET';
	let data: unknown;
	const body = options.body as unknown;
	if (body !== undefined && body !== null && (typeof body === 'string' || Object.keys(body as object).length > 0)) {
		data = body;
	}
	if (method === 'GET') data = undefined;
	if (options.json && !hasHeader(headers, 'accept')) headers.Accept = 'application/json';
	// As n8n 2.41's convertN8nRequestToAxios: timeout, abortSignal, disableFollowRedirect and encoding map
	// onto axios; without disableFollowRedirect axios follows redirects (and keeps the headers).
	const response = await axios.request({
		...(options.ignoreHttpStatusErrors ? { validateStatus: () => true } : {}),
		...(options.disableFollowRedirect ? { maxRedirects: 0 } : {}),
		...(options.encoding ? { responseType: options.encoding } : {}),
		url: options.url,
		baseURL: options.baseURL,
		method,
		headers: headers as Record<string, string>,
		params: options.qs,
		data,
		timeout: options.timeout,
		signal: options.abortSignal as AbortSignal | undefined,
		maxBodyLength: Infinity,
		maxContentLength: Infinity,
	});
	if (options.returnFullResponse) {
		return {
			body: response.data as unknown,
			headers: { ...response.headers } as IDataObject,
			statusCode: response.status,
			statusMessage: response.statusText,
		};
	}
	return response.data as unknown;
}

interface HostOptions {
	credentials: TestCredentials;
	node: INode;
	sent: SentRequest[];
	/** The execution's stop signal (getExecutionCancelSignal). */
	cancelSignal?: AbortSignal;
}

function makeHelpers({ credentials, node, sent, cancelSignal }: HostOptions) {
	return {
		async httpRequestWithAuthentication(credentialsType: string, requestOptions: IHttpRequestOptions) {
			// As n8n 2.41's httpRequestWithAuthentication: the execution's stop signal replaces the caller's.
			requestOptions.abortSignal = cancelSignal;
			// n8n-core wraps a failed request in a NodeApiError (the original stays as cause, with its code).
			try {
				if (credentialsType !== credentialType.name) throw new Error(`Unknown credential type ${credentialsType}`);
				const authenticated = authenticate(requestOptions, credentials);
				sent.push(authenticated);
				return await n8nHttpRequest(authenticated);
			} catch (error) {
				throw new NodeApiError(node, error as JsonObject);
			}
		},
		/** As n8n's binary data in memory mode: the file as base64 with its name and type. */
		async prepareBinaryData(data: Buffer, fileName?: string, mimeType?: string) {
			return { data: data.toString('base64'), fileName, mimeType, fileSize: String(data.length) };
		},
		returnJsonArray(data: IDataObject | IDataObject[]): INodeExecutionData[] {
			return (Array.isArray(data) ? data : [data]).map((json) => ({ json }));
		},
		constructExecutionMetaData(
			inputData: INodeExecutionData[],
			options: { itemData: IPairedItemData | IPairedItemData[] },
		): INodeExecutionData[] {
			return inputData.map((data) => ({ ...data, pairedItem: options.itemData }));
		},
	};
}

function makeNode(type: string, description: INodeTypeDescription, parameters: INodeParameters): INode {
	return {
		id: 'node-under-test',
		name: String(description.defaults.name),
		type: `n8n-nodes-shortlink.${type}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { shortLinkApi: { id: '1', name: 'Short Link account' } },
	};
}

function readPath(source: unknown, path: string): unknown {
	let current = source;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

/** getNodeParameter over the user's values completed with the description's defaults, as n8n does. */
function parameterReader(description: INodeTypeDescription, node: INode, perItem: (itemIndex: number) => INodeParameters) {
	return (name: string, itemIndex: number, fallback?: unknown, options?: { extractValue?: boolean }) => {
		const resolved = NodeHelpers.getNodeParameters(description.properties, perItem(itemIndex), true, false, node, description);
		let value = readPath(resolved, name);
		if (value === undefined) {
			if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
			value = fallback;
		}
		if (options?.extractValue && value !== null && typeof value === 'object' && '__rl' in value) {
			value = (value as IDataObject).value;
		}
		return structuredClone(value);
	};
}

export interface RunNodeOptions {
	credentials: TestCredentials;
	/** Node parameters; a function gives each item its own (like expressions over $json). */
	parameters: INodeParameters | ((itemIndex: number) => INodeParameters);
	/** Input items (default: one empty item). */
	items?: IDataObject[];
	continueOnFail?: boolean;
	sent?: SentRequest[];
	/** The execution's stop signal, as n8n 2.x hands it out (getExecutionCancelSignal). */
	cancelSignal?: AbortSignal;
	/** The workflow's time zone (getTimezone); n8n's default GENERIC_TIMEZONE is America/New_York. */
	timezone?: string;
	/** Collects the execution hints the node adds (n8n shows them in the output pane). */
	hints?: NodeExecutionHint[];
	/** The node to run; default the built one (dist/). The recipe test runs the node built from its sources. */
	nodeType?: InstanceType<typeof ShortLink>;
}

/** Runs the built Short Link node's execute() once over all input items; returns the main output. */
export async function runNode(options: RunNodeOptions): Promise<INodeExecutionData[]> {
	const nodeType = options.nodeType ?? new ShortLink();
	const perItem = typeof options.parameters === 'function' ? options.parameters : () => options.parameters as INodeParameters;
	const node = makeNode('shortLink', nodeType.description, perItem(0));
	const items = (options.items ?? [{}]).map((json) => ({ json }));
	const sent = options.sent ?? [];
	const context = {
		getInputData: () => items,
		getNode: () => node,
		getNodeParameter: parameterReader(nodeType.description, node, perItem),
		continueOnFail: () => options.continueOnFail === true,
		getExecutionCancelSignal: () => options.cancelSignal,
		getTimezone: () => options.timezone ?? 'America/New_York',
		addExecutionHints: (...hints: NodeExecutionHint[]) => options.hints?.push(...hints),
		getCredentials: async (name: string) => {
			if (name !== 'shortLinkApi') throw new Error(`Node does not have credentials of type ${name}`);
			return { ...options.credentials };
		},
		helpers: makeHelpers({ credentials: options.credentials, node, sent, cancelSignal: options.cancelSignal }),
	};
	const output = await nodeType.execute.call(context as never);
	return output[0];
}

export interface TriggerHost {
	/** The workflow's static data for this node, kept between polls like n8n does for active workflows. */
	staticData: IDataObject;
	sent: SentRequest[];
	/** What the node logged (n8n's logger), as `level: message`. */
	logs: string[];
	/** The credential the next polls use (a user may pick another one). */
	credentials: TestCredentials;
	poll(mode?: 'trigger' | 'manual'): Promise<IDataObject[] | null>;
}

export interface TriggerHostOptions {
	/** The workflow's id: polls of one workflow and node share the trigger's poll guard. Default: a fresh id. */
	workflowId?: string;
	/** The workflow's time zone (getTimezone). Default UTC. */
	timezone?: string;
	/** What n8n 2.x tells a poll about its time (getPollBudgetMs); absent as in n8n 1.x. */
	pollBudgetMs?: number;
}

let workflows = 0;

/** A polling host for the built trigger: each poll() is one scheduled (or manual) run. */
export function triggerHost(credentials: TestCredentials, parameters: INodeParameters = {}, options: TriggerHostOptions = {}): TriggerHost {
	const nodeType = new ShortLinkTrigger();
	const node = makeNode('shortLinkTrigger', nodeType.description, parameters);
	const workflow = { id: options.workflowId ?? `wf-${++workflows}`, name: 'Trigger test', active: true };
	const host: TriggerHost = {
		staticData: {},
		sent: [],
		logs: [],
		credentials,
		async poll(mode = 'trigger') {
			// n8n does not save static data after a manual run: hand out a copy there.
			const staticData = mode === 'manual' ? structuredClone(host.staticData) : host.staticData;
			const read = parameterReader(nodeType.description, node, () => parameters);
			const log = (level: string) => (message: string) => host.logs.push(`${level}: ${message}`);
			const current = host.credentials;
			const context = {
				getNode: () => node,
				getMode: () => mode,
				getWorkflow: () => workflow,
				getTimezone: () => options.timezone ?? 'UTC',
				...(options.pollBudgetMs === undefined ? {} : { getPollBudgetMs: () => options.pollBudgetMs }),
				logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
				getNodeParameter: (name: string, fallback?: unknown) => read(name, 0, fallback),
				getWorkflowStaticData: () => staticData,
				getCredentials: async () => ({ ...current }),
				helpers: makeHelpers({ credentials: current, node, sent: host.sent }),
			};
			const result = await nodeType.poll.call(context as never);
			return result === null ? null : result[0].map((item) => item.json);
		},
	};
	return host;
}

/** ILoadOptionsFunctions for the listSearch methods. */
export function loadOptionsContext(credentials: TestCredentials) {
	const nodeType = new ShortLink();
	const node = makeNode('shortLink', nodeType.description, {});
	return {
		methods: nodeType.methods.listSearch,
		context: {
			getNode: () => node,
			getCredentials: async () => ({ ...credentials }),
			helpers: makeHelpers({ credentials, node, sent: [] }),
		} as never,
	};
}

/** Resource locator value as n8n stores it. */
export function locator(mode: string, value: string) {
	return { __rl: true, mode, value };
}
