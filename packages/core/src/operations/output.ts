/**
 * What an operation returns, described once beside its form: the fields of its records (key, label, type),
 * of its summary, the file it may make, and a sample. Hosts generate their output descriptions from it
 * (Zapier's outputFields and samples, an MCP tool's outputSchema), so a label or a type never differs
 * between them, and the conformance table checks every record a run gives against it.
 */
import { conditionHolds, type FieldCondition, type FormField } from '../forms/form-fields';

/** What one output value holds (hosts map it to their own type: Zapier's, JSON Schema's). */
export type OutputType =
  | 'string'
  | 'integer'
  | 'number' // a fraction, e.g. a report's share
  | 'boolean'
  | 'datetime' // an ISO 8601 timestamp, UTC
  | 'date' // a calendar day, YYYY-MM-DD
  | 'list' // entries described by `fields`
  | 'object'; // fields described by `fields`

export interface OutputField {
  /** The key in the record, the same on every host (e.g. `shortUrl`). */
  key: string;
  /** The name people see next to the value, e.g. "Short URL". */
  label: string;
  type: OutputType;
  /** The value may be null (a link without a title, a plan without a quota). */
  nullable?: boolean;
  /** In the records only when the form's values match (e.g. a day's date: Output is One Item per Day). */
  when?: FieldCondition;
  /** Not in every record even when `when` holds (a milestone comes only with milestone events). */
  optional?: boolean;
  /** For 'list': the fields of each entry; for 'object': its fields. */
  fields?: readonly OutputField[];
}

/** The file an operation may make beside its records (a QR code image, a CSV report). */
export interface OutputFile {
  /** What the file is, e.g. "QR Code File". */
  label: string;
  /** A file of each record (recordIndex), or one of the whole result. */
  per: 'record' | 'result';
  /** Made only when the form's values match (absent: always). */
  when?: FieldCondition;
  mimeTypes: readonly string[];
}

export interface OperationOutput {
  /** 'one': every run gives exactly one record; 'many': any number, none included. */
  count: 'one' | 'many';
  /** The fields of each record, in the order hosts show them. */
  fields: readonly OutputField[];
  /** The fields of OperationResult.summary (totals beside the rows), when the operation gives one. */
  summary?: readonly OutputField[];
  file?: OutputFile;
}

/** A result as the output describes it, for the host's sample data (Zapier's sample, docs). */
export interface OperationSample {
  records: ReadonlyArray<Record<string, unknown>>;
  summary?: Record<string, unknown>;
}

/** The fields of a list, each under `when` (fields that have a condition of their own keep both). */
export function outputWhen(when: FieldCondition, fields: readonly OutputField[]): OutputField[] {
  return fields.map((field) => ({ ...field, when: { ...field.when, ...when } }));
}

/**
 * The fields a run with these values gives (a host that fixes a value, e.g. Zapier's Find Daily Clicks
 * with Output One Item per Day, shows only those), one per key, in the declared order. With no values,
 * every field that can appear, the first declaration of a key winning.
 */
export function outputFieldsFor(fields: readonly OutputField[], values?: Readonly<Record<string, unknown>>, form: readonly FormField[] = []): OutputField[] {
  const shown = values === undefined ? fields : fields.filter((field) => conditionHolds(field.when, values, form));
  const seen = new Set<string>();
  return shown.filter((field) => !seen.has(field.key) && seen.add(field.key));
}
