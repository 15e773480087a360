/**
 * A report as a CSV file (RFC 4180: comma, CRLF, quotes doubled), columns in the shape's order. Text that a
 * spreadsheet would run as a formula gets a leading apostrophe (basics/sheet-text.ts, the rule the hosts'
 * rows follow too): a link title such as "=HYPERLINK(…)" must not execute when the file is opened. Numbers
 * stay numbers.
 */
import { sheetSafeText } from '../../basics/sheet-text';
import type { OperationFile } from '../operation';
import type { ReportRow } from './report-rows';

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = sheetSafeText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function reportCsv(columns: readonly string[], rows: readonly ReportRow[]): string {
  const lines = [columns.map((name) => cell(name)).join(',')];
  for (const row of rows) lines.push(columns.map((name) => cell(row[name])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function reportCsvFile(fileName: string, columns: readonly string[], rows: readonly ReportRow[]): OperationFile {
  return { fileName, mimeType: 'text/csv', data: new TextEncoder().encode(reportCsv(columns, rows)) };
}
