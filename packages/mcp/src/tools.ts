/**
 * The tools: one per operation of the core's OPERATIONS list that the exposure table offers to agents, in
 * its order, under the tool name and title it gives, so an operation added there is a tool here without a
 * line of this package. Lists without an end of their own are offered one page at a time (the table's
 * one-page form): an agent never receives a whole account.
 */
import { agentDescription, exposureOf, inputSchemaOf, isOffered, recordSchemaOf, singleRowFields, type JsonSchema } from '@shortlink/core/host';
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
  /** What structuredContent carries, generated from the operation's output fields. */
  outputSchema?: JsonSchema & { type: 'object' };
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

/**
 * What a call's structuredContent carries (tool-result.ts), from the operation's declared output: the
 * records (exactly one when the operation always gives one), the summary beside them and the files' names
 * when it makes any. Nothing else is allowed, so a field the core adds without declaring it fails the test
 * that validates every tool's results against this.
 */
export function outputSchemaOf(operation: Operation): JsonSchema & { type: 'object' } {
  const { output } = operation;
  const records: JsonSchema = { type: 'array', items: recordSchemaOf(output.fields), ...(output.count === 'one' ? { minItems: 1, maxItems: 1 } : {}) };
  const properties: Record<string, JsonSchema> = { records };
  if (output.summary) properties.summary = recordSchemaOf(output.summary);
  if (output.file) {
    properties.files = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          fileName: { type: 'string', title: output.file.label },
          mimeType: { type: 'string', enum: output.file.mimeTypes },
          recordIndex: output.file.per === 'record' ? { type: 'integer', minimum: 0 } : { type: 'null' },
        },
        required: ['fileName', 'mimeType', 'recordIndex'],
        additionalProperties: false,
      },
    };
  }
  return { type: 'object', properties, required: ['records'], additionalProperties: false };
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
    outputSchema: outputSchemaOf(operation),
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
