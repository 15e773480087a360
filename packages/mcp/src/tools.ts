/**
 * The tools: one per operation of the core's OPERATIONS list that the exposure table offers to agents, in
 * its order, under the tool name and title it gives, so an operation added there is a tool here without a
 * line of this package. Lists without an end of their own are offered one page at a time (the table's
 * one-page form): an agent never receives a whole account.
 */
import { agentDescription, exposureOf, inputSchemaOf, isOffered, singleRowFields, type JsonSchema } from '@shortlink/core/host';
import { OPERATIONS, type Operation } from '@shortlink/core/operations';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ShortLinkTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  operation: Operation;
}

function mcpExposure(operation: Operation) {
  const exposure = exposureOf(operation).mcp;
  if (!isOffered(exposure)) throw new Error(`MCP does not offer ${operation.key}: ${exposure.notOffered}`);
  return exposure;
}

/** "link" + "Find or Create" → link_find_or_create (the exposure table's tool name). */
export function toolNameOf(operation: Operation): string {
  return mcpExposure(operation).tool;
}

export function toolOf(listed: Operation): ShortLinkTool {
  const exposure = mcpExposure(listed);
  const operation = exposure.form ?? listed;
  const title = exposure.title;
  const { readOnly, destructive, idempotent, offline } = operation.safety;
  return {
    name: exposure.tool,
    title,
    // What it does, whether repeating it is safe (from its safety), what it returns.
    description: agentDescription(operation, OPERATIONS),
    // A call is a run of one row: choices that matter only for many rows at once are left out.
    inputSchema: inputSchemaOf(singleRowFields(operation.fields)),
    annotations: {
      title,
      readOnlyHint: readOnly,
      // The spec reads destructiveHint only when readOnlyHint is false; it is stated either way.
      destructiveHint: !readOnly && destructive,
      idempotentHint: readOnly || idempotent,
      // Every tool but the offline ones talks to the short-link service, outside this machine.
      openWorldHint: offline !== true,
    },
    operation,
  };
}

export function shortLinkTools(operations: readonly Operation[] = OPERATIONS): ShortLinkTool[] {
  return operations.filter((operation) => isOffered(exposureOf(operation).mcp)).map(toolOf);
}
