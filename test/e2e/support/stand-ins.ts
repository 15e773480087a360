/**
 * The shipped examples with stand-ins for the nodes that need the user's own accounts (Google Sheets,
 * Slack): each stand-in keeps the node's name, place and wiring and evaluates the same mapping, or supplies
 * the sample rows; everything else is the shipped file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkflow } from '../../../scripts/n8n/examples';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { repoRoot } from '../../../scripts/n8n/runtime';

export type Node = WorkflowJson['nodes'][number];
export type Row = Record<string, string | number>;

/** The shipped workflow with some nodes swapped for stand-ins that keep the node's name, place and wiring. */
export function withStandIns(file: string, standIns: Record<string, (node: Node) => Node | Node[]>): WorkflowJson {
  const workflow = structuredClone(exampleWorkflow(file));
  const missing = Object.keys(standIns).filter((name) => !workflow.nodes.some((node) => node.name === name));
  if (missing.length > 0) throw new Error(`${file} has no node ${missing.join(', ')}`);
  workflow.nodes = workflow.nodes.flatMap((node) => {
    const make = standIns[node.name];
    if (!make) return [node];
    const made = [make(node)].flat();
    return made.map((standIn) => ({ id: `${node.id as string}-${standIn.name === node.name ? 's' : 'r'}`, position: node.position, ...standIn }));
  });
  return workflow;
}

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

/** The sample sheet shipped beside the example, as Google Sheets reads it: one item per row, with its row number. */
export function sampleSheet(): Row[] {
  const [header, ...lines] = readFileSync(join(repoRoot, 'examples', 'campaign-sheet.csv'), 'utf8').trim().split('\n');
  const columns = header!.split(',');
  return lines.map((line, index) => ({ row_number: index + 2, ...Object.fromEntries(line.split(',').map((value, column) => [columns[column]!, value])) }));
}

/** The campaign sheet example with stand-ins for its Google Sheets and Slack nodes, reading these rows. */
export function campaignSheet(rows: Row[], extra: Record<string, (node: Node) => Node | Node[]> = {}): WorkflowJson {
  return withStandIns('campaign-sheet.json', {
    'Read campaign sheet': (node) => rowsNode(node.name, rows),
    // The real node writes these columns of `columns.value` into the row named by row_number.
    'Write short URL back': (node) => recordNode(node.name, (node.parameters.columns as { value: Record<string, string> }).value),
    'Post new link to Slack': (node) => recordNode(node.name, { text: node.parameters.text as string }),
    ...extra,
  });
}
