/** The few JSON helpers every reader of the service's answers needs, written once. */

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parsed JSON when the text parses, else the text itself ('' stays ''): the core judges the rest. */
export function parseBodyText(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
