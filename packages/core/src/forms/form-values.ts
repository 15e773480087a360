/**
 * The values of an operation's form as a host hands them over: one flat record keyed by FormField.key,
 * values as people typed or mapped them (text, numbers as text, booleans as "true", empty strings for
 * empty fields). FormReader reads them with the field's label in every error, before any request is sent.
 */
import { InputError } from '../errors';
import { isRecord } from '../basics/json';
import { conditionHolds, type FormField } from './form-fields';

export type FormValues = Readonly<Record<string, unknown>>;

/** Who fills the form (OperationContext.caller): the hints differ, the rules do not. */
export type FormCaller = 'person' | 'agent';

/** The longest input a message quotes: a 500 KB value is named by its start and its length. */
export const MAX_QUOTED_INPUT = 80;

/** A value as a message quotes it: in quotes, cut to MAX_QUOTED_INPUT characters with its length said. */
export function quoteInput(value: unknown): string {
  const text = String(value);
  return text.length <= MAX_QUOTED_INPUT ? `"${text}"` : `"${text.slice(0, MAX_QUOTED_INPUT)}…" (${text.length.toLocaleString('en-US')} characters)`;
}

const HINTS: Record<FormCaller, { required: string; single: string; singles: string }> = {
  person: { required: 'Enter a value or map one from an earlier step.', single: 'Map a single value.', singles: 'Map single values.' },
  agent: { required: 'Pass a value for it.', single: 'Pass a single value.', singles: 'Pass single values.' },
};

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export class FormReader {
  private readonly fieldsByKey: Map<string, FormField>;

  private readonly hints: (typeof HINTS)[FormCaller];

  constructor(
    readonly values: FormValues,
    private readonly fields: readonly FormField[],
    caller: FormCaller = 'person',
  ) {
    this.hints = HINTS[caller];
    this.fieldsByKey = new Map(fields.map((field) => [field.key, field]));
  }

  /**
   * The value as given, or undefined for a field its form does not show for these values (FormField.showWhen):
   * a value left behind in a hidden field (n8n keeps them) is not read.
   */
  private value(key: string): unknown {
    const field = this.fieldsByKey.get(key);
    if (field?.showWhen !== undefined && !conditionHolds(field.showWhen, this.values, this.fields)) return undefined;
    return this.values[key];
  }

  /** The label of a field, for messages. */
  label(key: string): string {
    return this.fieldsByKey.get(key)?.label ?? key;
  }

  private refuse(key: string, rule: string): never {
    throw new InputError(key, `"${this.label(key)}" ${rule}`);
  }

  /** Trimmed text, or undefined when empty. Objects and lists are refused: a mapping went wrong. */
  text(key: string): string | undefined {
    const value = this.value(key);
    if (isEmpty(value)) return undefined;
    if (typeof value === 'object') this.refuse(key, `needs text, but got a list or an object. ${this.hints.single}`);
    return String(value).trim();
  }

  /** Trimmed text that must be there. */
  requiredText(key: string): string {
    const text = this.text(key);
    if (text === undefined) this.refuse(key, `is required. ${this.hints.required}`);
    return text;
  }

  /** A whole number within the field's bounds, or the field's default (undefined when it has none). */
  number(key: string): number | undefined {
    const value = this.value(key);
    const field = this.fieldsByKey.get(key);
    if (isEmpty(value)) return typeof field?.default === 'number' ? field.default : undefined;
    const number = typeof value === 'number' ? value : Number(String(value).trim());
    const min = field?.min ?? Number.MIN_SAFE_INTEGER;
    const max = field?.max ?? Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(number) || number < min || number > max) {
      const range = field?.min !== undefined && field?.max !== undefined ? ` from ${min} to ${max}` : field?.min !== undefined ? ` of at least ${min}` : '';
      this.refuse(key, `must be a whole number${range}; got ${quoteInput(value)}.`);
    }
    return number;
  }

  /** A switch: true, false, "true"/"false", "yes"/"no"; empty gives the field's default (else false). */
  flag(key: string): boolean {
    const value = this.value(key);
    const field = this.fieldsByKey.get(key);
    if (isEmpty(value)) return field?.default === true;
    if (typeof value === 'boolean') return value;
    const text = String(value).trim().toLowerCase();
    if (['true', 'yes', '1', 'on'].includes(text)) return true;
    if (['false', 'no', '0', 'off'].includes(text)) return false;
    return this.refuse(key, `must be yes or no; got ${quoteInput(value)}.`);
  }

  /** One of the field's choices (by value or label, any case), or its default. */
  choice<T extends string>(key: string): T | undefined {
    const field = this.fieldsByKey.get(key);
    const text = this.text(key);
    if (text === undefined) return typeof field?.default === 'string' ? (field.default as T) : undefined;
    const choices = field?.choices ?? [];
    const hit = choices.find((c) => c.value.toLowerCase() === text.toLowerCase() || c.label.toLowerCase() === text.toLowerCase());
    if (!hit) this.refuse(key, `must be one of: ${choices.map((c) => c.label).join(', ')}; got ${quoteInput(text)}.`);
    return hit.value as T;
  }

  /**
   * Several entries: a list, or text separated by commas or new lines (how Zapier and sheets hand lists
   * over). Empty entries are dropped; objects are refused.
   */
  list(key: string): string[] {
    const value = this.value(key);
    if (isEmpty(value)) return [];
    const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\n,]/) : [value];
    const texts: string[] = [];
    for (const entry of entries) {
      if (isRecord(entry) || Array.isArray(entry)) this.refuse(key, `needs a list of values, but an entry is an object. ${this.hints.singles}`);
      if (!isEmpty(entry)) texts.push(String(entry).trim());
    }
    return texts;
  }

  /**
   * The rows of a `rows` field: a list of records (or the same as JSON text, as some hosts pass tables),
   * at most the field's `max`. Each row is read later with its own FormReader over the field's rowFields.
   */
  rows(key: string): FormValues[] {
    let value = this.values[key];
    if (typeof value === 'string' && value.trim().startsWith('[')) {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        this.refuse(key, 'must be a list of rows; the text given is not a readable JSON list.');
      }
    }
    if (isEmpty(value)) this.refuse(key, 'is required: give at least one row.');
    if (!Array.isArray(value)) this.refuse(key, 'must be a list of rows, each with its columns (e.g. targetUrl, utmSource).');
    const field = this.fieldsByKey.get(key);
    const max = field?.max ?? Number.MAX_SAFE_INTEGER;
    if (value.length === 0) this.refuse(key, 'is required: give at least one row.');
    if (value.length > max) this.refuse(key, `takes at most ${max.toLocaleString('en-US')} rows at a time; got ${value.length.toLocaleString('en-US')}. Split the rows into several runs.`);
    return value.map((row, index) => {
      if (!isRecord(row)) this.refuse(key, `row ${index + 1} must be a record of columns (e.g. {"targetUrl": "https://example.org"}); got ${Array.isArray(row) ? 'a list' : typeof row}.`);
      return row;
    });
  }

  /** The raw value, for the few fields that take a host's own value (a date object from an expression). */
  raw(key: string): unknown {
    return this.value(key);
  }
}
