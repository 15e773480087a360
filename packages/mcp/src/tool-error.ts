/**
 * A failed call as a tool error (isError: true, so the model reads it and can correct its input): the same
 * sentence n8n and Zapier show — the core's explanation with the form's labels, never a field's key — and
 * the way out. Errors that are no ShortLinkError are bugs or transport failures: a short, generic line (no
 * stack, nothing that could carry the key). An error's text has a bounded length, whatever it quotes.
 */
import { adviceFor, errorLabels, inFormWords } from '@shortlink/core/host';
import { AuthenticationError, DeadlineError, redact, ShortLinkError } from '@shortlink/core/portable';
import type { Operation } from '@shortlink/core/operations';
import type { CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { KeySource } from './accounts';

/** n8n says "the credential"; here the key is the one the server was started with. */
export const RECONNECT_ADVICE_MCP =
  'Check the API key this server was started with (SHORTLINK_API_KEY or the config file): a wrong, revoked or deleted key needs a new one (dashboard, section "API"); restart the server with it.';

/** On a server that takes each request's key (--per-request-key), the key is the caller's. */
export const PER_REQUEST_KEY_HEADER = 'x-shortlink-api-key';
export const RECONNECT_ADVICE_HEADER =
  'Check the API key this client sends in the X-Shortlink-Api-Key header: a wrong, revoked or deleted key needs a new one (dashboard, section "API").';

/** A call that ran out of the server's time: trying the same again does not help; narrowing or a longer limit does. */
export function deadlineAdvice(limitMs: number): string {
  return `This server gives one call ${Math.round(limitMs / 1000)} s (SHORTLINK_TOOL_TIMEOUT_SECONDS): narrow the request (fewer links in a report, a shorter date range), or ask whoever runs the server to raise that limit.`;
}

/** The longest error text a tool returns; the core already cuts the inputs it quotes. */
export const MAX_ERROR_TEXT = 2_000;

/** A value quoted in a message, cut to `max` characters with its length said. */
export function echoed(value: string, max: number): string {
  return value.length <= max ? `"${value}"` : `"${value.slice(0, max)}…" (${value.length.toLocaleString('en-US')} characters)`;
}

function bounded(text: string): string {
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT)}… (cut at ${MAX_ERROR_TEXT.toLocaleString('en-US')} characters)`;
}

/** The sentence people read for an error of this operation. */
export function errorText(operation: Operation, error: unknown, secrets: readonly string[], keySource: KeySource = 'server'): string {
  if (!(error instanceof ShortLinkError)) {
    return bounded(`${operation.label} failed unexpectedly: ${redact(error instanceof Error ? error.message : String(error), secrets)}`);
  }
  const explanation = inFormWords(error, errorLabels(operation.fields)).detail ?? error.message;
  const advice =
    error instanceof AuthenticationError ? (keySource === 'header' ? RECONNECT_ADVICE_HEADER : RECONNECT_ADVICE_MCP) : error instanceof DeadlineError ? deadlineAdvice(error.limitMs) : adviceFor(error);
  const text = advice ? `${explanation} ${advice}` : explanation;
  return bounded(redact(error.title && !text.startsWith(error.title) ? `${error.title}: ${text}` : text, secrets));
}

export function toolErrorOf(operation: Operation, error: unknown, account: { secrets: readonly string[]; keySource: KeySource }): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(operation, error, account.secrets, account.keySource) }] };
}

/**
 * A JSON-RPC error answer with the spec's code. (The SDK's McpError would put "MCP error -32602:" into
 * the message itself, and clients print it twice.)
 */
export function protocolError(code: ErrorCode, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
