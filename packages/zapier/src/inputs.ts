import { InputError } from '@shortlink/core/portable';

/**
 * Readers for bundle.inputData: Zapier sends '' for a field left empty and booleans as words. A bad
 * value throws the core's InputError (naming the field), which errors.ts maps like every other error.
 */
export type InputData = Record<string, unknown>;

/** A trimmed string, or undefined when the field was left empty (so it is not sent at all). */
export function optionalString(input: InputData, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

export function requiredString(input: InputData, key: string, label: string): string {
  const value = optionalString(input, key);
  if (value === undefined) throw new InputError(key, `${label} is required.`);
  return value;
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

/** Zapier's boolean fields arrive as booleans or as the words the user typed or mapped. */
export function optionalBoolean(input: InputData, key: string, label: string): boolean | undefined {
  const value = input[key];
  if (typeof value === 'boolean') return value;
  const text = optionalString(input, key)?.toLowerCase();
  if (text === undefined) return undefined;
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  throw new InputError(key, `${label} must be yes or no (also accepted: true/false, 1/0); got "${String(value)}".`);
}
