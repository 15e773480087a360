/**
 * The MCP server: lists the tools and runs a call through the core's runOperation, the door n8n and Zapier
 * use. It sits on the SDK's low-level Server (not McpServer) because the input schemas are the core's JSON
 * Schemas, not zod: the values go to the operation as given and are read, and refused, in the form's words.
 *
 * A call carries the client's cancel (notifications/cancelled, or the client's own timeout) as the run's
 * signal, the server's time limit (SHORTLINK_TOOL_TIMEOUT_SECONDS) as its deadline, and, when the request
 * has a progress token, the operation's progress as notifications/progress.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  RequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { runOperation, type OperationContext, type OperationProgress } from '@shortlink/core/operations';
import { singleRowFields } from '@shortlink/core/host';
import { redact } from '@shortlink/core/portable';
import type { Account } from './accounts';
import { promptResult, PROMPTS } from './prompts';
import { shortLinkTools, type ShortLinkTool } from './tools';
import { echoed, protocolError, toolErrorOf } from './tool-error';
import { toolResultOf } from './tool-result';

import packageJson from '../package.json';

export const SERVER_NAME = packageJson.name;
export const SERVER_VERSION = packageJson.version;

/** Default time limit of one tool call: inside the 60 s a client built on the MCP SDK waits by default. */
export const DEFAULT_CALL_TIMEOUT_MS = 55_000;

export interface ShortLinkServerOptions {
  /** The account the calls act on: its client, its run cache and the secrets to scrub. */
  account: Account;
  /** Time zone for dates typed without one (Expires At). */
  timeZone?: string;
  /** Time limit of one call with all its requests and waits, ms. */
  callTimeoutMs?: number;
  tools?: ShortLinkTool[];
  /** Told when a call ended because the client cancelled it (HTTP closes that call's response stream). */
  onCancelled?: (requestId: string | number) => void;
  /** The team's UTM presets and rules from the config (issue 37). */
  utmPresets?: string;
}

/** What the protocol hands one call beside its arguments. */
export interface CallExtras {
  signal?: AbortSignal;
  /** Hears the operation's progress (set when the request carries a progress token). */
  onProgress?: (progress: OperationProgress) => void;
}

const INSTRUCTIONS =
  'Short links for marketing: shorten URLs with UTM parameters, find the link a URL already has, read click statistics and campaign reports. ' +
  'Prefer link_find_or_create over link_create: repeating it with the same values makes no second link. ' +
  'link_get_many returns one page; pass its continuation back for the next.';

/** Arguments the tool does not take: said in one line, with the fields it does take. */
function unknownArguments(tool: ShortLinkTool, args: Record<string, unknown>): CallToolResult | undefined {
  const unknown = Object.keys(args).filter((key) => !(key in (tool.inputSchema.properties ?? {})));
  if (unknown.length === 0) return undefined;
  const known = singleRowFields(tool.operation.fields)
    .map((field) => `${field.key} (${field.label})`)
    .join(', ');
  const named = unknown.slice(0, 5).map((key) => echoed(key, 60));
  const more = unknown.length > named.length ? ` and ${unknown.length - named.length} more` : '';
  return { isError: true, content: [{ type: 'text', text: `${tool.title} has no field ${named.join(', ')}${more}. Its fields are: ${known}.` }] };
}

export async function callTool(tool: ShortLinkTool, args: Record<string, unknown>, options: ShortLinkServerOptions, extras: CallExtras = {}): Promise<CallToolResult> {
  const refused = unknownArguments(tool, args);
  if (refused) return refused;
  const { account } = options;
  // Each call is a run of one; the account's run cache carries e.g. a quota refusal to the calls after it.
  const context: OperationContext = { timeZone: options.timeZone ?? 'UTC', runSize: 1, cache: account.runCache, caller: 'agent', ...(options.utmPresets ? { utmPresets: options.utmPresets } : {}) };
  context.deadlineAt = Date.now() + (options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
  if (extras.signal) context.signal = extras.signal;
  if (extras.onProgress) context.onProgress = extras.onProgress;
  try {
    return toolResultOf(await runOperation(tool.operation, account.client, args, context));
  } catch (error) {
    return toolErrorOf(tool.operation, error, account);
  }
}

type SendNotification = (notification: ServerNotification) => Promise<void>;

/**
 * notifications/progress for one call: only increasing counts (the spec's rule), at most one every
 * 100 ms unless it is the last, sent one after another, never failing the call when the client has gone.
 * `settled()` waits for those sent so far (true when any was): the result must not overtake its last
 * progress (a client drops progress that comes after the result).
 */
export function progressSender(
  progressToken: string | number,
  send: SendNotification,
  secrets: readonly string[],
  now: () => number = Date.now,
): ((progress: OperationProgress) => void) & { settled(): Promise<boolean> } {
  let lastDone = -1;
  let lastAt = Number.NEGATIVE_INFINITY;
  let sending: Promise<void> = Promise.resolve();
  let sent = false;
  const hear = (progress: OperationProgress): void => {
    if (!(progress.done > lastDone)) return;
    const last = progress.total !== undefined && progress.done >= progress.total;
    if (!last && now() - lastAt < 100) return;
    lastDone = progress.done;
    lastAt = now();
    const params: { progressToken: string | number; progress: number; total?: number; message?: string } = { progressToken, progress: progress.done };
    if (progress.total !== undefined) params.total = progress.total;
    if (progress.message !== undefined) params.message = redact(progress.message, secrets);
    sent = true;
    sending = sending.then(() => send({ method: 'notifications/progress', params })).catch(() => undefined);
  };
  return Object.assign(hear, { settled: () => sending.then(() => sent) });
}

export function createShortLinkServer(options: ShortLinkServerOptions): Server {
  const tools = options.tools ?? shortLinkTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      annotations,
    })),
  }));
  // Registered with the loose request shape: the SDK's own check of tools/call then answers malformed params
  // with JSON-RPC -32602 (with the strict shape here, a params error would surface as -32603).
  const callToolShape = RequestSchema.extend({ method: CallToolRequestSchema.shape.method });
  server.setRequestHandler(callToolShape, async (loose, extra) => {
    const request = loose as unknown as CallToolRequest;
    const tool = byName.get(request.params.name);
    // The spec's protocol error for a tool that does not exist (JSON-RPC -32602), not a tool result.
    if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool ${echoed(request.params.name, 60)}. The tools are: ${tools.map((t) => t.name).join(', ')}.`);
    const token = extra._meta?.progressToken;
    const extras: CallExtras = { signal: extra.signal };
    const progress = token === undefined ? undefined : progressSender(token, extra.sendNotification, options.account.secrets);
    if (progress) extras.onProgress = progress;
    try {
      const result = await callTool(tool, request.params.arguments ?? {}, options, extras);
      // The SDK's client handles a notification a tick after it arrives but a result at once: the result
      // goes out a turn of the event loop after the last progress, or that progress would come too late.
      if (progress && (await progress.settled())) await new Promise((resolve) => setImmediate(resolve));
      return result;
    } finally {
      // No answer goes out for a cancelled request (the spec's rule): its stream has nothing more to carry.
      if (extra.signal.aborted) options.onCancelled?.(extra.requestId);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => promptResult(request.params.name, request.params.arguments ?? {}));
  return server;
}
