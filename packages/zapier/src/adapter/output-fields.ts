/**
 * Zapier's outputFields and samples, generated from what the core's operations and triggers declare
 * (Operation.output and sample, Trigger.output and sample), in the shape the step hands over (output.ts):
 * a record's fields as they are, a list's entries as line items `list[]field` labelled "Field (List)", an
 * object's fields as `object__field`, a file as the step's `file` pointer. Nothing here is written per step.
 */
import { outputFieldsFor, sampleFor, type FormValues, type Operation, type OperationRecord, type OutputField, type Trigger } from '@shortlink/core/operations';
import type { ZapierOutputShape } from '@shortlink/core/host';
import { NOT_IN_LINE_ITEMS } from './output';

export interface ZapierOutputField {
  key: string;
  label: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime' | 'file';
}

const TYPES: Record<OutputField['type'], ZapierOutputField['type']> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  // A calendar day as the service gives it (2026-03-01): Zapier's datetime would add a time and a zone.
  date: 'string',
  list: undefined,
  object: undefined,
};

/** One output field as Zapier lists it: nested lists and objects flattened the way Zapier flattens them. */
function flatten(field: OutputField, key = field.key, label = field.label): ZapierOutputField[] {
  if (field.type === 'list') return (field.fields ?? []).flatMap((entry) => flatten(entry, `${key}[]${entry.key}`, `${entry.label} (${label})`));
  if (field.type === 'object') return (field.fields ?? []).flatMap((entry) => flatten(entry, `${key}__${entry.key}`, `${label}: ${entry.label}`));
  const type = TYPES[field.type];
  return [{ key, label, ...(type ? { type } : {}) }];
}

/** Zapier's file field: the pointer a later step turns into the file (files.ts). */
const FILE_KEY = 'file';
/** What a sample shows in place of a file pointer. */
const FILE_SAMPLE = 'hydrate|||{"type":"file"}|||hydrate';

export function zapierOutputFields(operation: Operation, shape: ZapierOutputShape, fixed?: FormValues): ZapierOutputField[] {
  const records = outputFieldsFor(operation.output.fields, fixed, operation.fields);
  const file = operation.output.file;
  const fileField = file ? [{ key: FILE_KEY, label: file.label, type: 'file' as const }] : [];
  if (shape.kind !== 'lineItems') return [...records.flatMap((field) => flatten(field)), ...(file?.per === 'record' ? fileField : [])];
  // Line items: the summary's totals (those every result has), the count, the file of the whole result, the rows.
  const totals = outputFieldsFor(operation.output.summary ?? [], fixed, operation.fields).filter((field) => !field.optional && !NOT_IN_LINE_ITEMS.includes(field.key) && field.key !== shape.key);
  return [
    ...totals.flatMap((field) => flatten(field)),
    { key: 'count', label: shape.countLabel, type: 'integer' },
    ...(file?.per === 'result' ? fileField : []),
    ...records.flatMap((field) => flatten(field, `${shape.key}[]${field.key}`, `${field.label} (${shape.label})`)),
  ];
}

export function zapierSample(operation: Operation, shape: ZapierOutputShape, fixed?: FormValues): Record<string, unknown> {
  const sample = sampleFor(operation, fixed);
  const file = operation.output.file && operation.output.file.when === undefined ? { [FILE_KEY]: FILE_SAMPLE } : {};
  if (shape.kind !== 'lineItems') return { ...sample.records[0], ...(operation.output.file?.per === 'record' ? file : {}) };
  const { [shape.key]: _replaced, ...summary } = Object.fromEntries(Object.entries(sample.summary ?? {}).filter(([key]) => !NOT_IN_LINE_ITEMS.includes(key)));
  return { ...summary, count: sample.records.length, [shape.key]: sample.records };
}

/**
 * A trigger's record as Zapier gets it: Zapier deduplicates polling items by `id`, so a record that names
 * its event (eventId) has the event's id as `id` and the link's own as `linkId`.
 */
export function zapierItem(record: OperationRecord): { id: string } & OperationRecord {
  if (!('eventId' in record)) return { ...record, id: String(record.id) };
  const { eventId, ...rest } = record;
  return { ...rest, id: String(eventId), linkId: String(record.id) };
}

export function triggerOutputFields(trigger: Trigger, fixed?: FormValues): ZapierOutputField[] {
  const fields = outputFieldsFor(trigger.output, fixed, trigger.fields);
  const event = fields.find((field) => field.key === 'eventId');
  if (!event) return fields.flatMap((field) => flatten(field));
  const link = fields.find((field) => field.key === 'id')!;
  const rest = fields.filter((field) => field !== event && field !== link);
  return [{ ...event, key: 'id' }, { ...link, key: 'linkId' }, ...rest].flatMap((field) => flatten(field));
}

export function triggerSample(trigger: Trigger): Record<string, unknown> {
  return zapierItem(trigger.sample);
}
