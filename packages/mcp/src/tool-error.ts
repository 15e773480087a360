/**
 * A failed call as a tool error (isError: true, so the model reads it and can correct its input): the same
 * sentence n8n and Zapier show — the core's explanation with the form's labels, never a field's key — and
 * the way out. Errors that are no ShortLinkError are bugs or transport failures: a short, generic line (no
 * stack, nothing that could carry the key).
 */
import { adviceFor, errorLabels, inFormWords } from '@shortlink/core/host';
import { AuthenticationError, redact, ShortLinkError } from '@shortlink/core/portable';
import type { Operation } from '@shortlink/core/operations';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** n8n says "the credential"; here the key is the one the server was started with. */
export const RECONNECT_ADVICE_MCP =
  'Check the API key this server was started with (SHORTLINK_API_KEY or the config file): a wrong, revoked or deleted key needs a new one (dashboard, section "API"); restart the server with it.';

/** The sentence people read for an error of this operation. */
export function errorText(operation: Operation, error: unknown, secrets: readonly string[]): string {
  if (!(error instanceof ShortLinkError)) {
    return `${operation.label} failed unexpectedly: ${redact(error instanceof Error ? error.message : String(error), secrets)}`;
  }
  const explanation = inFormWords(error, errorLabels(operation.fields)).detail ?? error.message;
  const advice = error instanceof AuthenticationError ? RECONNECT_ADVICE_MCP : adviceFor(error);
  const text = advice ? `${explanation} ${advice}` : explanation;
  return redact(error.title && !text.startsWith(error.title) ? `${error.title}: ${text}` : text, secrets);
}

export function toolErrorOf(operation: Operation, error: unknown, secrets: readonly string[]): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(operation, error, secrets) }] };
}
