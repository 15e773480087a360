/**
 * The shipped examples with stand-ins for the nodes that need the user's own accounts (Google Sheets,
 * Slack): each stand-in keeps the node's name, place and wiring and evaluates the same mapping, or supplies
 * the sample rows; everything else is the shipped file.
 */
import { exampleWorkflow } from '../../../scripts/n8n/examples';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { recordNode, rowsNode, type Node, type Row } from '../../../scripts/n8n/stand-ins';

// The node-level stand-ins are the playground's too (scripts/n8n/stand-ins.ts: `npm start` imports the examples
// with them).
export { recordNode, rowsNode, sampleSheet, type Node, type Row } from '../../../scripts/n8n/stand-ins';

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
