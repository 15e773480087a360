/**
 * The MCP server: lists the tools and runs a call through the core's runOperation, the door n8n and Zapier
 * use. It sits on the SDK's low-level Server (not McpServer) because the input schemas are the core's JSON
 * Schemas, not zod: the values go to the operation as given and are read, and refused, in the form's words.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMemoryRunCache, runOperation, singleRowFields, type OperationContext, type RunCache, type ShortLinkClient } from '@shortlink/core/portable';
import { shortLinkTools, type ShortLinkTool } from './tools';
import { toolErrorOf } from './tool-error';
import { toolResultOf } from './tool-result';

import packageJson from '../package.json';

export const SERVER_NAME = packageJson.name;
export const SERVER_VERSION = packageJson.version;

export interface ShortLinkServerOptions {
  client: ShortLinkClient;
  /** Scrubbed from every result and error (the client already scrubs its own errors). */
  secrets: readonly string[];
  /** Time zone for dates typed without one (Expires At). */
  timeZone?: string;
  tools?: ShortLinkTool[];
  /** What calls keep for the calls after them (a plan-quota refusal); default: in this server's memory. */
  runCache?: RunCache;
  /** The team's UTM presets and rules from the config (issue 37). */
  utmPresets?: string;
}

const INSTRUCTIONS =
  'Short links for marketing: shorten URLs with UTM parameters, find the link a URL already has, read click statistics. ' +
  'Prefer link_find_or_create over link_create: repeating it with the same values makes no second link. ' +
  'link_get_many returns one page; pass its continuation back for the next.';

/** Arguments the tool does not take: said in one line, with the fields it does take. */
function unknownArguments(tool: ShortLinkTool, args: Record<string, unknown>): CallToolResult | undefined {
  const unknown = Object.keys(args).filter((key) => !(key in (tool.inputSchema.properties ?? {})));
  if (unknown.length === 0) return undefined;
  const known = singleRowFields(tool.operation.fields).map((field) => `${field.key} (${field.label})`).join(', ');
  return { isError: true, content: [{ type: 'text', text: `${tool.title} has no field ${unknown.map((key) => `"${key}"`).join(', ')}. Its fields are: ${known}.` }] };
}

export async function callTool(tool: ShortLinkTool, args: Record<string, unknown>, options: ShortLinkServerOptions): Promise<CallToolResult> {
  const refused = unknownArguments(tool, args);
  if (refused) return refused;
  // Each call is a run of one; the server's run cache carries e.g. a quota refusal to the calls after it.
  const context: OperationContext = { timeZone: options.timeZone ?? 'UTC', runSize: 1, cache: options.runCache, ...(options.utmPresets ? { utmPresets: options.utmPresets } : {}) };
  try {
    return toolResultOf(await runOperation(tool.operation, options.client, args, context));
  } catch (error) {
    return toolErrorOf(tool.operation, error, options.secrets);
  }
}

export function createShortLinkServer(options: ShortLinkServerOptions): Server {
  const tools = options.tools ?? shortLinkTools();
  const calls: ShortLinkServerOptions = { ...options, runCache: options.runCache ?? createMemoryRunCache() };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return { isError: true, content: [{ type: 'text', text: `No tool "${request.params.name}". The tools are: ${tools.map((t) => t.name).join(', ')}.` }] };
    }
    return callTool(tool, request.params.arguments ?? {}, calls);
  });
  return server;
}
