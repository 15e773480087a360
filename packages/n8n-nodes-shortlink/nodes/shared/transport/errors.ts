import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { adviceFor, errorLabels, inFormWords, InputError, ShortLinkError, type FieldLabels } from '../../core';

/** The labels errors name fields by: the core's, with the form's own labels (every host the same). */
export type { FieldLabels };
const CONNECTION_LABELS = errorLabels();

// Fields of the credential (packages/core/src/credential/short-link-credential.ts), not of the node.
const CREDENTIAL_FIELDS = new Set(['baseUrl', 'apiKey']);

/**
 * The explanation people read, for a core error: the service's detail (or, without one, the core's own
 * sentence) with the form's labels instead of API names and rules instead of patterns. The node's error
 * description, its Continue On Fail items and the credential test all show this same text.
 */
export function explanationOf(error: ShortLinkError, labels: FieldLabels = CONNECTION_LABELS): string {
	return inFormWords(error, labels).detail ?? error.message;
}

/** The explanation, and the way out when the core knows one: reconnect (a refused key) or upgrade (the plan). */
export function descriptionOf(error: ShortLinkError, labels: FieldLabels = CONNECTION_LABELS): string {
	const advice = adviceFor(error);
	return advice ? `${explanationOf(error, labels)} ${advice}` : explanationOf(error, labels);
}

/**
 * Maps whatever a core call threw to the error n8n shows: NodeOperationError for bad input (no request
 * was sent), NodeApiError with the service's problem title as message and its detail as description.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
	labels: FieldLabels = CONNECTION_LABELS,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		if (CREDENTIAL_FIELDS.has(error.field)) {
			return new NodeOperationError(node, explanationOf(error, labels), {
				itemIndex,
				description: `Open the Short Link API credential and correct its field "${labels[error.field]}".`,
			});
		}
		// The sentence names the field with its label and says what is allowed; nothing was sent.
		return new NodeOperationError(node, explanationOf(error, labels), { itemIndex });
	}
	if (error instanceof ShortLinkError) {
		const problem: JsonObject = { message: error.message, kind: error.kind, title: error.title };
		if (error.status !== undefined) problem.status = error.status;
		if (error.type !== undefined) problem.type = error.type;
		if (error.detail !== undefined) problem.detail = error.detail;
		return new NodeApiError(node, problem, {
			// The problem title as message, the service's detail below it; without a detail (an HTML error
			// page, no answer at all) the core's self-contained sentence, which names status or network code.
			message: error.title || error.message,
			description: descriptionOf(error, labels),
			httpCode: error.status !== undefined ? String(error.status) : undefined,
			itemIndex,
		});
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/**
 * The output item of a failed input item under Continue On Fail, following n8n's HTTP Request node (4.5+):
 * `error` holds the whole explanation in one sentence, `details` the parts (message, description, httpCode,
 * the form fields concerned). No `.error` is set beside the json: n8n 2.x would replace the json of such an
 * item by `{ error: message }` (WorkflowExecute.normalizeNodeErrors), and downstream nodes would lose the
 * detail. Only the keys error and details are used, so "Continue (using error output)" still routes the item
 * to the error output (WorkflowExecute.handleNodeErrorOutput).
 */
export function errorOutputJson(nodeError: NodeApiError | NodeOperationError, cause: unknown, labels: FieldLabels = CONNECTION_LABELS): IDataObject {
	const message = nodeError.message;
	const description = nodeError.description ?? undefined;
	const httpCode = nodeError instanceof NodeApiError && nodeError.httpCode ? nodeError.httpCode : undefined;
	const fields = cause instanceof ShortLinkError ? inFormWords(cause, labels).fields : [];

	let error = message;
	if (description && description !== message) {
		const head = httpCode ? `${message} (HTTP ${httpCode})` : message;
		error = description.startsWith(message) ? description : `${head}: ${description}`;
	} else if (httpCode) {
		error = `${message} (HTTP ${httpCode})`;
	}
	const details: IDataObject = { message };
	if (description) details.description = description;
	if (httpCode) details.httpCode = httpCode;
	if (fields.length > 0) details.field = fields.join(', ');
	return { error, details };
}
