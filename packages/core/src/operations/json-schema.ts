/**
 * An operation's form as a JSON Schema (draft 2020-12 subset), for hosts that describe their inputs that
 * way (MCP tools' inputSchema). Generated from the FormField list, so the labels, help texts, bounds and
 * choices are the ones n8n and Zapier show: one source, not a copy per host.
 *
 * The schema says what a well-formed call looks like; the operation still reads the values with FormReader,
 * so a value that slips past a host's validation is refused in the form's words, naming the field's label.
 */
import { alwaysRequired, conditionText, type FormField } from '../forms/form-fields';
import type { OutputField } from './output';

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** A note on when the field counts: "Used only when "Links" is "Of a Campaign"; then required." */
function conditionNote(field: FormField, fields: readonly FormField[]): string {
  const notes: string[] = [];
  if (field.showWhen) notes.push(`Used only when ${conditionText(field.showWhen, fields)}${field.required ? '; then required' : ''}.`);
  if (field.requiredWhen) notes.push(`Required when ${conditionText(field.requiredWhen, fields)}.`);
  return notes.join(' ');
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
    case 'rows':
      return { type: 'array', items: inputSchemaOf(field.rowFields ?? []), minItems: 1, ...(field.max === undefined ? {} : { maxItems: field.max }) };
    default:
      // text, link (an ID or a short URL), domain, dateTime (as people type it, read in the run's time zone), password
      return { type: 'string' };
  }
}

/** The help text, with what each choice means (an agent sees the values, people the labels). */
function descriptionOf(field: FormField, fields: readonly FormField[]): string {
  const choices = (field.choices ?? []).map((choice) => `"${choice.value}" = ${choice.label}${choice.help ? ` (${choice.help})` : ''}`);
  const help = field.agentHelp ?? field.help;
  const text = choices.length > 0 ? `${help} Values: ${choices.join('; ')}.` : help;
  const note = conditionNote(field, fields);
  return note ? `${text} ${note}` : text;
}

/** A list field's default is text (how n8n and Zapier show it): as a list, it is the entries. */
function defaultOf(field: FormField): unknown {
  if (field.default === undefined) return undefined;
  if (field.kind !== 'list') return field.default;
  const entries = String(field.default).split(/[\s,]+/).filter((entry) => entry !== '');
  return field.listOf === 'number' ? entries.map(Number) : entries;
}

export function fieldSchema(field: FormField, fields: readonly FormField[] = [field]): JsonSchema {
  const schema: JsonSchema = { ...valueSchema(field), title: field.label, description: descriptionOf(field, fields) };
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
  for (const field of fields) properties[field.key] = fieldSchema(field, fields);
  // A field required only under a condition is said in its description (a schema lists what every call needs).
  const required = fields.filter(alwaysRequired).map((field) => field.key);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The JSON type of one output value. */
function outputValueSchema(field: OutputField): JsonSchema {
  switch (field.type) {
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'list':
      return { type: 'array', items: recordSchemaOf(field.fields ?? []) };
    case 'object':
      return recordSchemaOf(field.fields ?? []);
    default:
      return { type: field.type };
  }
}

function outputFieldSchema(field: OutputField): JsonSchema {
  const schema: JsonSchema = { ...outputValueSchema(field), title: field.label };
  if (field.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

/**
 * The schema of one record (or summary) with these output fields: every key the fields name, those present
 * in every record required. A key declared several times (per choice of the form) takes its first label and
 * the types of all its declarations. Nothing else is allowed, so a record with an undeclared field fails.
 */
export function recordSchemaOf(fields: readonly OutputField[]): JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> } {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const schema = outputFieldSchema(field);
    const before = properties[field.key];
    if (before === undefined) properties[field.key] = schema;
    else if (JSON.stringify(before.type) !== JSON.stringify(schema.type)) {
      const types = new Set([before.type, schema.type].flat().filter((type): type is string => typeof type === 'string'));
      properties[field.key] = { title: before.title, type: [...types] };
    }
  }
  const always = [...new Set(fields.map((field) => field.key))].filter((key) => fields.filter((field) => field.key === key).some((field) => field.when === undefined && !field.optional));
  return { type: 'object', properties, ...(always.length > 0 ? { required: always } : {}), additionalProperties: false };
}
