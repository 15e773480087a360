import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { adviceFor, InputError, ShortLinkError } from '@shortlink/core/portable';

// The core names API fields; people see the node's labels.
const FIELD_LABELS: Record<string, string> = {
	targetUrl: 'Target URL',
	slug: 'Slug',
	title: 'Title',
	domain: 'Domain',
	expiresAt: 'Expires At',
	password: 'Password',
	active: 'Active',
	id: 'Link',
	shortUrl: 'Link',
	limit: 'Limit',
	patch: 'Update Fields',
};

// Fields of the credential (credentials/shortLinkApi.ts labels), not of the node.
const CREDENTIAL_FIELD_LABELS: Record<string, string> = {
	baseUrl: 'Base URL',
	apiKey: 'API Key',
};

/**
 * Maps whatever a core call threw to the error n8n shows: NodeOperationError for bad input (no request
 * was sent), NodeApiError with the service's problem title as message and its detail as description.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		const credentialLabel = CREDENTIAL_FIELD_LABELS[error.field];
		if (credentialLabel) {
			return new NodeOperationError(node, `Invalid value in the credential field "${credentialLabel}"`, {
				itemIndex,
				description: error.message,
			});
		}
		const label = FIELD_LABELS[error.field] ?? error.field;
		return new NodeOperationError(node, `Invalid value in the field "${label}"`, {
			itemIndex,
			description: error.message,
		});
	}
	if (error instanceof ShortLinkError) {
		const problem: JsonObject = { message: error.message, kind: error.kind, title: error.title };
		if (error.status !== undefined) problem.status = error.status;
		if (error.type !== undefined) problem.type = error.type;
		if (error.detail !== undefined) problem.detail = error.detail;
		// The way out, when the core knows one: reconnect (a refused key) or upgrade (a plan without API access).
		const advice = adviceFor(error);
		return new NodeApiError(node, problem, {
			// The problem title as message, the service's detail below it; without a detail (an HTML error
			// page, no answer at all) the core's self-contained sentence, which names status or network code.
			message: error.title || error.message,
			description: advice ? `${error.detail ?? error.message} ${advice}` : (error.detail ?? error.message),
			httpCode: error.status !== undefined ? String(error.status) : undefined,
			itemIndex,
		});
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
