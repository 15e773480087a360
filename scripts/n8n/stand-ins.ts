/**
 * Stand-ins for the steps of the examples that need the user's own accounts (Google Sheets, Slack): the
 * playground (`npm start`) imports the examples with them, so every example runs without those accounts, and
 * the e2e suites run the examples with them. A stand-in keeps the step's name, place and wiring: a sheet read
 * puts out the sample rows of examples/campaign-sheet.csv (with their row numbers, as Google Sheets gives them);
 * a sheet write and a Slack post evaluate the step's own mapping (the cells written, the message posted) and
 * show it as their output, sending nothing anywhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowJson } from './instance';
import { repoRoot } from './runtime';

export type Node = WorkflowJson['nodes'][number];
export type Row = Record<string, string | number>;

/** What a replaced step does: reads rows, writes a row again (idempotent), appends a row, posts a message. */
export type StandInKind = 'read' | 'write again' | 'append' | 'post';

/** A Code node putting out fixed rows, as a sheet read would. */
export const rowsNode = (name: string, rows: Row[]): Node => ({
  name,
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
});

/** A Set node keeping only the given fields, each the same expression as the replaced node's mapping. */
export const recordNode = (name: string, fields: Record<string, string>): Node => ({
  name,
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  parameters: {
    mode: 'manual',
    assignments: { assignments: Object.entries(fields).map(([field, value], index) => ({ id: `f${index}`, name: field, type: 'string', value })) },
    options: {},
  },
});

/** The sample sheet shipped beside the examples, as Google Sheets reads it: one item per row, with its row number. */
export function sampleSheet(): Row[] {
  const [header, ...lines] = readFileSync(join(repoRoot, 'examples', 'campaign-sheet.csv'), 'utf8').trim().split('\n');
  const columns = header!.split(',');
  return lines.map((line, index) => ({ row_number: index + 2, ...Object.fromEntries(line.split(',').map((value, column) => [columns[column]!, value])) }));
}

/** The kind of an account step, or undefined for any other node. */
export function standInKind(node: Node): StandInKind | undefined {
  if (node.type === 'n8n-nodes-base.slack') return 'post';
  if (node.type !== 'n8n-nodes-base.googleSheets') return undefined;
  const operation = node.parameters.operation as string | undefined;
  if (operation === 'append') return 'append';
  if (operation === 'update' || operation === 'appendOrUpdate') return 'write again';
  return 'read';
}

/** The stand-in of an account step (same name, place, wiring), with a note saying what it stands for. */
export function standInFor(node: Node): Node {
  const kind = standInKind(node);
  if (kind === undefined) return node;
  const columns = (node.parameters.columns as { value?: Record<string, string> } | undefined)?.value;
  const made =
    kind === 'read'
      ? rowsNode(node.name, sampleSheet())
      : recordNode(node.name, node.type === 'n8n-nodes-base.slack' ? { text: String(node.parameters.text ?? '') } : (columns ?? {}));
  const what = node.type === 'n8n-nodes-base.slack' ? 'Slack' : 'Google Sheets';
  return {
    ...made,
    id: node.id,
    position: node.position,
    notes: `Playground stand-in for ${what} (${kind}): ${kind === 'read' ? 'the sample rows of examples/campaign-sheet.csv' : 'shows what would be sent, sends nothing'}. In your n8n, the example file has the real ${what} step.`,
    notesInFlow: true,
  };
}

/** The workflow with every Google Sheets and Slack step replaced by its stand-in. */
export function withAccountStandIns(workflow: WorkflowJson): WorkflowJson {
  const copy = structuredClone(workflow);
  copy.nodes = copy.nodes.map(standInFor);
  return copy;
}
