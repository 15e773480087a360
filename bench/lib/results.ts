/**
 * The rows of `npm run bench`: each figure is one row { name, value, unit, goal, baseline, met },
 * printed as a table and written to bench/results.json. `goal` and `baseline` are text for people;
 * `met` is computed from the numbers by the figure that made the row.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ResultRow {
  name: string;
  value: number;
  unit: string;
  /** e.g. '≥ 0.95', '= 0'; null for figures reported without a goal. */
  goal: string | null;
  /** The baseline's value measured in the same run, or null when the figure has none. */
  baseline: number | string | null;
  /** null only for rows without a goal. */
  met: boolean | null;
  /** Why a number is what it is (method detail), shown under the table. */
  note?: string;
}

export type Comparison = '>=' | '<=' | '=';

/** A row whose `met` follows from comparing value with a numeric goal. */
export function row(
  name: string,
  value: number,
  unit: string,
  goal: { op: Comparison; target: number } | null,
  baseline: number | string | null,
  note?: string,
): ResultRow {
  const rounded = roundForDisplay(value);
  let met: boolean | null = null;
  let goalText: string | null = null;
  if (goal) {
    const { op, target } = goal;
    met = op === '>=' ? value >= target : op === '<=' ? value <= target : value === target;
    goalText = `${op === '>=' ? '≥' : op === '<=' ? '≤' : '='} ${target}`;
  }
  const result: ResultRow = { name, value: rounded, unit, goal: goalText, baseline, met };
  if (note !== undefined) result.note = note;
  return result;
}

/** Three significant digits keep the table readable; counts stay exact. */
export function roundForDisplay(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value) || 1)));
  return Number(value.toFixed(Math.min(digits, 4)));
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? 'yes' : 'NO';
  return String(value);
}

/** A plain-text table (also valid Markdown), one line per row. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = ['figure', 'value', 'unit', 'goal', 'baseline', 'met'];
  return formatTextTable(header, rows.map((r) => [r.name, cell(r.value), r.unit, cell(r.goal), cell(r.baseline), cell(r.met)]));
}

/** Columns padded to their widest cell; the form docs/performance.md's table is written in. */
export function formatTextTable(header: readonly string[], lines: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const render = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [render(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(render)].join('\n');
}

export function writeResults(file: string, rows: readonly ResultRow[]): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
}
