/**
 * Sheet-safe values (issue 37): what the n8n node and the Zapier app hand to the next step often lands in a
 * spreadsheet row (Google Sheets' "Append Row", Zapier's "Create Spreadsheet Row"), and both write text "as
 * the user entered it": a link title "=HYPERLINK(…)" or "+cmd" would run there as a formula. So those two
 * hosts pass every record (and the summary beside it) through this one step, the rule of the CSV file
 * (basics/sheet-text.ts): a text value that would run as a formula gets a leading apostrophe, which the
 * spreadsheet reads as "text" and does not show. The value as the service stores it stays available under
 * `raw` (`raw.title`), only for the fields that were changed. MCP hands records to agents, not sheets, and
 * leaves them as they are.
 */
import { runsAsFormula, sheetSafeText } from '../basics/sheet-text';
import type { OperationRecord, OperationResult } from './operation';

/** The key under which the changed fields' stored values are kept. */
export const RAW_VALUES_KEY = 'raw';

/** A record with every formula-like text made safe, and `raw` holding what those fields were. */
export function sheetSafeRecord(record: OperationRecord): OperationRecord {
  let raw: Record<string, string> | undefined;
  const safe: OperationRecord = {};
  for (const [key, value] of Object.entries(record)) {
    if (runsAsFormula(value)) {
      (raw ??= {})[key] = value;
      safe[key] = sheetSafeText(value);
    } else safe[key] = value;
  }
  return raw ? { ...safe, [RAW_VALUES_KEY]: raw } : safe;
}

/** A result as the n8n node and the Zapier app hand it on: records and summary sheet-safe. */
export function forSheets(result: OperationResult): OperationResult {
  return {
    ...result,
    records: result.records.map(sheetSafeRecord),
    ...(result.summary ? { summary: sheetSafeRecord(result.summary) } : {}),
  };
}

/** The stored values back (for tests and the conformance table, which compare hosts with the core). */
export function rawRecord(record: OperationRecord): OperationRecord {
  const { [RAW_VALUES_KEY]: raw, ...rest } = record;
  return raw && typeof raw === 'object' ? { ...rest, ...(raw as OperationRecord) } : record;
}
