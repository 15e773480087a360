/**
 * The tools: one per operation of the core's OPERATIONS list, in its order, so an operation added there
 * (Campaign Report, QR Code) is a tool here without a line of this package. Lists without an end of their
 * own are offered one page at a time (ONE_PAGE_FORMS): an agent never receives a whole account.
 */
import { inputSchemaOf, ONE_PAGE_FORMS, OPERATIONS, recordSchemaOf, singleRowFields, type JsonSchema, type Operation, type ResourceName } from '@shortlink/core/portable';

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

/** The resource as people say it, before the operation's label: "Link: Find or Create". */
const RESOURCE_TITLES: Record<ResourceName, string> = {
  link: 'Link',
  stats: 'Link Stats',
  domain: 'Domain',
  account: 'Account',
  campaign: 'Campaign URL',
  report: 'Campaign Report',
  qrCode: 'QR Code',
};

function snake(words: string): string {
  return words
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

/**
 * "link" + "Find or Create" → link_find_or_create (MCP names: letters, digits and "_"). A label that already
 * names its resource is not prefixed twice: "report" + "Campaign Report" → campaign_report.
 */
export function toolNameOf(operation: Operation): string {
  const resource = snake(operation.resource);
  const label = snake(operation.label);
  return `_${label}_`.includes(`_${resource}_`) ? label : `${resource}_${label}`;
}

/** "Link: Find or Create"; "Campaign Report" for the operation whose label is its resource's name. */
export function toolTitleOf(operation: Operation): string {
  const resource = RESOURCE_TITLES[operation.resource];
  return operation.label.toLowerCase().includes(resource.toLowerCase()) ? operation.label : `${resource}: ${operation.label}`;
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
  const operation = ONE_PAGE_FORMS[listed.key] ?? listed;
  const title = toolTitleOf(operation);
  const { readOnly, destructive, idempotent, offline } = operation.safety;
  return {
    name: toolNameOf(operation),
    title,
    description: operation.description,
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
  return operations.map(toolOf);
}
