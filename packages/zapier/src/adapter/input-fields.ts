/**
 * Zapier input fields generated from the core's form fields (FormField): label, help, required, choices and
 * order are the operation layer's, so the Zapier form says what the n8n form says. Only the widget is
 * Zapier's: Link fields are dropdowns of the account's links (linkChoices.ts) with a search connector,
 * Domain fields the hidden domain_list trigger, dates Zapier's datetime.
 */
import { alwaysRequired } from '@shortlink/core/host';
import type { FormField } from '@shortlink/core/operations';
import { linkChoices } from '../fields/linkChoices';

export interface ZapierInputField {
  key: string;
  label: string;
  helpText: string;
  required: boolean;
  type: 'string' | 'integer' | 'boolean' | 'datetime' | 'password';
  list?: boolean;
  default?: string;
  placeholder?: string;
  choices?: Array<{ value: string; label: string; sample: string }> | typeof linkChoices;
  dynamic?: string;
  search?: string;
  /** A line-item group (a table of rows): its columns. */
  children?: ZapierInputField[];
}

/** What a step adds to the core's fields: a sentence of help for some keys (Zapier-only advice). */
export interface InputFieldOptions {
  /** Extra help by field key, or by group ('utm') for all fields of the group. */
  extraHelp?: Record<string, string>;
  /** Whether Link fields offer the Find Link search connector (not on Find Link itself). */
  linkSearch?: boolean;
}

const TYPES: Record<FormField['kind'], ZapierInputField['type']> = {
  text: 'string',
  url: 'string',
  number: 'integer',
  boolean: 'boolean',
  choice: 'string',
  dateTime: 'datetime',
  // A calendar day as typed (YYYY-MM-DD): Zapier's datetime would add a time and a zone to it.
  date: 'string',
  link: 'string',
  domain: 'string',
  list: 'string',
  rows: 'string',
  password: 'password',
};

function widget(field: FormField, options: InputFieldOptions): Partial<ZapierInputField> {
  switch (field.kind) {
    case 'link':
      return { choices: linkChoices, ...(options.linkSearch === false ? {} : { search: 'find_link.id' }) };
    case 'domain':
      return { dynamic: 'domain_list.hostname.hostname' };
    case 'choice':
      return { choices: (field.choices ?? []).map((choice) => ({ value: choice.value, label: choice.label, sample: choice.value })) };
    case 'list':
      return field.listOf === 'link' ? { list: true, choices: linkChoices } : { list: true };
    default:
      return {};
  }
}

/** Zapier's style rule for help texts: no bare URLs (a URL is a Markdown link or in backticks). */
export function zapierHelp(text: string): string {
  return text.replace(/(^|[\s(])(https?:\/\/[^\s)`]*?)(?=[.,;:)]*(?:\s|$))/g, '$1`$2`');
}

export function inputFieldFor(field: FormField, options: InputFieldOptions = {}): ZapierInputField {
  const extra = options.extraHelp?.[field.key] ?? (field.group ? options.extraHelp?.[field.group] : undefined);
  if (field.kind === 'rows') {
    // Zapier's line items: map a line-item list (a sheet's rows) to the columns; each row is one record.
    // A group carries no type, help, placeholder or default of its own (Zapier's schema): the step's
    // description and the columns' help say it.
    return { key: field.key, label: field.label, required: field.required === true, children: inputFieldsFor(field.rowFields ?? [], options) } as ZapierInputField;
  }
  return {
    key: field.key,
    label: field.label,
    type: TYPES[field.kind],
    // Zapier shows every field at once: one required only for some choices is said in its help instead.
    required: alwaysRequired(field),
    helpText: zapierHelp(extra ? `${field.help} ${extra}` : field.help),
    ...(field.placeholder ? { placeholder: field.placeholder } : {}),
    ...(field.default === undefined ? {} : { default: String(field.default) }),
    ...widget(field, options),
  };
}

export function inputFieldsFor(fields: readonly FormField[], options: InputFieldOptions = {}): ZapierInputField[] {
  return fields.map((field) => inputFieldFor(field, options));
}
