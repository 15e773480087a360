/**
 * An operation's form as a JSON Schema (draft 2020-12 subset), for hosts that describe their inputs that
 * way (MCP tools' inputSchema). Generated from the FormField list, so the labels, help texts, bounds and
 * choices are the ones n8n and Zapier show: one source, not a copy per host.
 *
 * The schema says what a well-formed call looks like; the operation still reads the values with FormReader,
 * so a value that slips past a host's validation is refused in the form's words, naming the field's label.
 */
import type { FormField } from '../forms/form-fields';

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  examples?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** The JSON type of one field's value (before its details). */
function valueSchema(field: FormField): JsonSchema {
  switch (field.kind) {
    case 'number':
      return { type: 'integer', ...(field.min === undefined ? {} : { minimum: field.min }), ...(field.max === undefined ? {} : { maximum: field.max }) };
    case 'boolean':
      return { type: 'boolean' };
    // url: no "uri" format, because a URL typed without https:// is accepted (it is added).
    case 'date':
      return { type: 'string', format: 'date' };
    case 'choice':
      return { type: 'string', enum: (field.choices ?? []).map((choice) => choice.value) };
    case 'list':
      return { type: 'array', items: { type: field.listOf === 'number' ? 'integer' : 'string' } };
    default:
      // text, link (an ID or a short URL), domain, dateTime (as people type it, read in the run's time zone), password
      return { type: 'string' };
  }
}

/** The help text, with what each choice means (an agent sees the values, people the labels). */
function descriptionOf(field: FormField): string {
  const choices = (field.choices ?? []).map((choice) => `"${choice.value}" = ${choice.label}${choice.help ? ` (${choice.help})` : ''}`);
  const help = field.agentHelp ?? field.help;
  return choices.length > 0 ? `${help} Values: ${choices.join('; ')}.` : help;
}

/** A list field's default is text (how n8n and Zapier show it): as a list, it is the entries. */
function defaultOf(field: FormField): unknown {
  if (field.default === undefined) return undefined;
  if (field.kind !== 'list') return field.default;
  const entries = String(field.default).split(/[\s,]+/).filter((entry) => entry !== '');
  return field.listOf === 'number' ? entries.map(Number) : entries;
}

export function fieldSchema(field: FormField): JsonSchema {
  const schema: JsonSchema = { ...valueSchema(field), title: field.label, description: descriptionOf(field) };
  const fallback = defaultOf(field);
  if (fallback !== undefined) schema.default = fallback;
  // Placeholders read "e.g. https://sho.rt/spring-sale": the example is what follows "e.g.".
  const example = field.placeholder?.replace(/^e\.g\.\s*/i, '').trim();
  if (example) schema.examples = [example];
  return schema;
}

/** The input schema of a form: one property per field, the required ones listed, nothing else accepted. */
export function inputSchemaOf(fields: readonly FormField[]): JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> } {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) properties[field.key] = fieldSchema(field);
  const required = fields.filter((field) => field.required).map((field) => field.key);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
