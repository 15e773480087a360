/**
 * The MCP server (packages/mcp) as an agent reaches it: the SDK's own Client connected to the server over
 * the SDK's in-memory transport (the same JSON-RPC messages as stdio), the server on the package's own core
 * client (fetch transport). Which tool runs an operation is the core's exposure table (the server's own
 * source); a case runs on MCP when the tool takes every value it gives (an agent cannot send a field the
 * tool does not have: the one-page Get Many takes no Return All, a call is one row so no quota choice).
 * The MCP formatting step undone (packages/mcp/src/tool-result.ts): records and summary from the structured
 * content, files from the image and resource contents.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { exposureOf, isOffered } from '@shortlink/core/host';
import { operationByKey } from '@shortlink/core/operations';
import { clientFor } from '../../../packages/mcp/src/client';
import { Accounts } from '../../../packages/mcp/src/accounts';
import { createShortLinkServer } from '../../../packages/mcp/src/server';
import { shortLinkTools, type ShortLinkTool } from '../../../packages/mcp/src/tools';
import type { Fixture } from './fixtures';
import { fileOutcome, type FileOutcome, type Outcome } from './outcome';

const TOOLS = shortLinkTools();

/** The tool of the operation, if MCP offers it and the tool takes every value of the case. */
export function mcpToolFor(operationKey: string, values: Record<string, unknown>): ShortLinkTool | undefined {
  const exposure = exposureOf(operationByKey(operationKey)).mcp;
  if (!isOffered(exposure)) return undefined;
  const tool = TOOLS.find((candidate) => candidate.name === exposure.tool);
  if (!tool) throw new Error(`The exposure table names the tool ${exposure.tool}, which the server does not list`);
  return Object.keys(values).every((key) => key in (tool.inputSchema.properties ?? {})) ? tool : undefined;
}

function filesOf(result: CallToolResult): FileOutcome[] {
  return result.content.flatMap((content): FileOutcome[] => {
    if (content.type === 'image') return [fileOutcome(content.mimeType, Buffer.from(content.data, 'base64'))];
    if (content.type !== 'resource') return [];
    const resource = content.resource as { mimeType?: string; text?: string; blob?: string };
    const data = resource.text !== undefined ? Buffer.from(resource.text, 'utf8') : Buffer.from(resource.blob ?? '', 'base64');
    return [fileOutcome(resource.mimeType ?? '', data)];
  });
}

/**
 * The summary in the operation's terms: a one-page form's paging (continuation, last page) is the form's,
 * not the listed operation's, so only what the operation itself declares is kept.
 */
function summaryOf(summary: Record<string, unknown> | undefined, operationKey: string | undefined): { summary?: Record<string, unknown> } {
  if (!summary || operationKey === undefined) return summary ? { summary } : {};
  const declared = new Set((operationByKey(operationKey).output.summary ?? []).map((field) => field.key));
  const own = Object.fromEntries(Object.entries(summary).filter(([key]) => declared.has(key)));
  return Object.keys(own).length > 0 ? { summary: own } : {};
}

/** Calls the tool as an agent does and gives the outcome in the core's terms. */
export async function runMcp(tool: ShortLinkTool, values: Record<string, unknown>, fixture: Fixture, timeZone: string, operationKey?: string): Promise<Outcome> {
  const config = { baseUrl: fixture.baseUrl, apiKey: fixture.apiKey, timeZone, callTimeoutMs: 120_000 };
  const server = createShortLinkServer({ account: new Accounts((apiKey) => clientFor(config, apiKey)).forKey(fixture.apiKey, 'server'), timeZone });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'shortlink-conformance', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const result = (await client.callTool({ name: tool.name, arguments: values })) as CallToolResult;
    if (result.isError) {
      const text = result.content.map((content) => (content.type === 'text' ? content.text : '')).join(' ');
      return { error: text, notFound: false };
    }
    const structured = result.structuredContent as { records: Array<Record<string, unknown>>; summary?: Record<string, unknown> };
    return { records: structured.records, ...summaryOf(structured.summary, operationKey), files: filesOf(result) };
  } finally {
    await client.close();
    await server.close();
  }
}
