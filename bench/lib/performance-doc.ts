/**
 * The "Latest numbers" table of docs/performance.md is written by `npm run bench`, never by hand, so the
 * figures there are always those of a run. A run replaces the rows of the figures it measured (all of them,
 * or those of BENCH_ONLY) and keeps the others; each row says which run it comes from, and the runs still
 * quoted are listed under the table with their command, date, Node version and duration.
 */
import { formatTextTable, type ResultRow } from './results';

export const BLOCK_START = '<!-- bench:results — written by `npm run bench` (bench/lib/performance-doc.ts); edits by hand are overwritten -->';
export const BLOCK_END = '<!-- /bench:results -->';

const COLUMNS = ['figure', 'value', 'unit', 'goal', 'baseline', 'met', 'figure set', 'run'] as const;

/** One row of the document's table, as text cells. */
export type DocRow = Record<(typeof COLUMNS)[number], string>;

export interface BenchRun {
  /** e.g. '2026-11-27 07:40 UTC': unique per run, the key rows refer to. */
  id: string;
  command: string;
  node: string;
  seconds: number;
}

export interface DocResults {
  rows: DocRow[];
  runs: BenchRun[];
}

const cell = (value: unknown) => (value === null || value === undefined ? '–' : typeof value === 'boolean' ? (value ? 'yes' : 'NO') : String(value));

/** The cells a result row shows in the document, tagged with its figure set and run. */
export function docRow(result: ResultRow, figureSet: string, run: BenchRun): DocRow {
  return {
    figure: result.name,
    value: cell(result.value),
    unit: result.unit,
    goal: cell(result.goal),
    baseline: cell(result.baseline),
    met: cell(result.met),
    'figure set': figureSet,
    run: run.id,
  };
}

/** The block's Markdown: the table, then the runs it quotes. */
export function renderBlock({ rows, runs }: DocResults): string {
  const quoted = runs.filter((run) => rows.some((row) => row.run === run.id));
  const table = formatTextTable(COLUMNS, rows.map((row) => COLUMNS.map((column) => row[column])));
  const runLines = quoted.map((run) => `- ${run.id}: \`${run.command}\`, Node ${run.node}, ${run.seconds} s`);
  return [BLOCK_START, '', table, '', 'Runs:', '', ...runLines, '', BLOCK_END].join('\n');
}

/** The block of a document, parsed back; throws when it is missing or not in the written form. */
export function parseBlock(markdown: string): DocResults {
  const start = markdown.indexOf(BLOCK_START);
  const end = markdown.indexOf(BLOCK_END);
  if (start < 0 || end < start) throw new Error('docs/performance.md has no bench:results block');
  const lines = markdown.slice(start, end).split('\n');
  const tableLines = lines.filter((line) => line.startsWith('|')).slice(2);
  const rows = tableLines.map((line) => {
    const cells = line.slice(1, -1).split(' | ').map((text) => text.trim());
    if (cells.length !== COLUMNS.length) throw new Error(`a table line without ${COLUMNS.length} cells: ${line}`);
    return Object.fromEntries(COLUMNS.map((column, index) => [column, cells[index]!])) as DocRow;
  });
  const runs = lines.flatMap((line) => {
    const match = /^- (.+?): `(.+)`, Node (\S+), (\d+) s$/.exec(line);
    return match ? [{ id: match[1]!, command: match[2]!, node: match[3]!, seconds: Number(match[4]) }] : [];
  });
  return { rows, runs };
}

/**
 * The document with one run's figure sets written in: rows of those sets are replaced (in place when the set
 * was there, else at the end), other rows are kept, and runs no row refers to any more are dropped.
 */
export function withRun(markdown: string, sets: ReadonlyMap<string, readonly ResultRow[]>, run: BenchRun): string {
  const current = parseBlock(markdown);
  const rows: DocRow[] = [];
  const written = new Set<string>();
  for (const row of current.rows) {
    const set = row['figure set'];
    if (!sets.has(set)) rows.push(row);
    else if (!written.has(set)) {
      rows.push(...sets.get(set)!.map((result) => docRow(result, set, run)));
      written.add(set);
    }
  }
  for (const [set, results] of sets) if (!written.has(set)) rows.push(...results.map((result) => docRow(result, set, run)));
  const runs = [...current.runs.filter((known) => known.id !== run.id), run];
  const start = markdown.indexOf(BLOCK_START);
  const end = markdown.indexOf(BLOCK_END) + BLOCK_END.length;
  return `${markdown.slice(0, start)}${renderBlock({ rows, runs })}${markdown.slice(end)}`;
}

/** '2026-11-27 07:40 UTC' */
export function runId(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
