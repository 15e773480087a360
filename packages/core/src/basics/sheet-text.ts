/**
 * Text that a spreadsheet would run as a formula (OWASP "CSV injection"): a value starting with "=", "+",
 * "-" or "@", or with a tab or a carriage return (which some spreadsheets skip before reading a formula).
 * Such text gets a leading apostrophe, which Google Sheets and Excel read as "this cell is text" and do not
 * show: a link title "=HYPERLINK(…)" stays the words it is instead of a live formula. The one rule for the
 * CSV file (reports/report-csv.ts) and for every row the n8n node and the Zapier app hand on
 * (operations/sheet-rows.ts). Numbers are never changed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Whether a spreadsheet would read this value as a formula. */
export function runsAsFormula(value: unknown): value is string {
  return typeof value === 'string' && FORMULA_START.test(value);
}

/** The text as a spreadsheet shows it without running it. */
export function sheetSafeText(text: string): string {
  return runsAsFormula(text) ? `'${text}` : text;
}
