/**
 * Zapier's one formatting step (docs/architecture.md, "Host formatting steps"): the core's records become
 * what a create or a search returns, without renaming or adding a field.
 * - a create returns its one record as the object;
 * - a search returns its records as the list Zapier takes the first of ([] when none: "nothing found");
 * - a line-item step returns one object: the summary's fields, `count`, and the records under one key, so
 *   that "Looping by Zapier" or a later step can go through them ([] when there are none);
 * - files (QR codes, CSV reports) become hydrated files (files.ts): the record's `file` field is the
 *   pointer Zapier turns into the file when a later step such as "Upload File" or an email attachment uses it;
 * - every record and the summary are sheet-safe (the core's forSheets: text a spreadsheet would run as a
 *   formula gets a leading apostrophe, the stored value stays under `raw`), since "Create Spreadsheet Row"
 *   writes text as the user entered it.
 * A line-item step that is a create (Zapier wants an object there) returns the one object itself.
 */
import type { ZObject } from 'zapier-platform-core';
import type { OperationFile, OperationRecord, OperationResult } from '@shortlink/core/operations';
import { forSheets, rawRecord, type ZapierOutputShape } from '@shortlink/core/host';
import { fileField } from './files';

/** The step's output shape: the core's exposure table names it for every step. */
export type OutputShape = ZapierOutputShape;

/** Summary fields a line-item step leaves out: "found" (a step with no line item already says nothing was found). */
export const NOT_IN_LINE_ITEMS: readonly string[] = ['found'];

async function withFiles(z: ZObject, result: OperationResult): Promise<{ records: OperationRecord[]; summary?: OperationRecord }> {
  const records = result.records.map((record) => ({ ...record }));
  let summary = result.summary ? { ...result.summary } : undefined;
  for (const file of result.files ?? []) {
    const fields = { file: await fileField(z, file) };
    if (file.recordIndex !== undefined && records[file.recordIndex]) Object.assign(records[file.recordIndex]!, fields);
    else summary = { ...summary, ...fields };
  }
  return { records, ...(summary ? { summary } : {}) };
}

/** The result as the step hands it to Zapier. */
export async function forZapier(z: ZObject, result: OperationResult, shape: OutputShape): Promise<unknown> {
  const { records, summary } = await withFiles(z, forSheets(result));
  if (shape.kind === 'object') {
    // A create has exactly one record; one that has none (nothing to show) returns the summary.
    return records[0] ?? summary ?? {};
  }
  if (shape.kind === 'list') return records;
  const totals = Object.fromEntries(Object.entries(summary ?? {}).filter(([key]) => !NOT_IN_LINE_ITEMS.includes(key)));
  if (shape.as === 'object') return { ...totals, count: records.length, [shape.key]: records };
  if (records.length === 0) return [];
  return [{ ...totals, count: records.length, [shape.key]: records }];
}

/** For tests and the conformance table: the core's records back from what a step returned (stored values too). */
export function recordsFromZapier(output: unknown, shape: OutputShape): OperationRecord[] {
  return shapedRecords(output, shape).map(rawRecord);
}

function shapedRecords(output: unknown, shape: OutputShape): OperationRecord[] {
  // The file pointer is Zapier's form of OperationResult.files, not a field of the core's record.
  if (shape.kind === 'object') {
    const { file: _file, ...record } = output as OperationRecord;
    return [record];
  }
  if (shape.kind === 'lineItems' && shape.as === 'object') return (output as OperationRecord)[shape.key] as OperationRecord[];
  const list = output as OperationRecord[];
  if (shape.kind === 'list') return list;
  return list.length === 0 ? [] : (list[0]![shape.key] as OperationRecord[]);
}

export type { OperationFile };
