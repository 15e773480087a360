/**
 * The example workflows shipped in the repository: the n8n package's own examples
 * (packages/n8n-nodes-shortlink/examples) and the playground's (examples/n8n). `npm start` imports
 * them into the editor and the end-to-end suite runs them, so every example is proven to work.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './runtime';
import type { WorkflowJson } from './instance';

export const EXAMPLE_FOLDERS = [join(repoRoot, 'packages', 'n8n-nodes-shortlink', 'examples'), join(repoRoot, 'examples', 'n8n')];

export interface ExampleWorkflow {
  file: string;
  workflow: WorkflowJson;
}

/** n8n's import wants ids of at most 16 characters; an example without one gets a stable id from its file name. */
function idFor(file: string): string {
  return `ex${createHash('sha256').update(file).digest('hex').slice(0, 14)}`;
}

export function loadExampleWorkflows(): ExampleWorkflow[] {
  const examples: ExampleWorkflow[] = [];
  for (const folder of EXAMPLE_FOLDERS) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.json')).sort()) {
      const file = join(folder, name);
      const workflow = JSON.parse(readFileSync(file, 'utf8')) as WorkflowJson;
      if (!workflow.id) workflow.id = idFor(file.slice(repoRoot.length));
      examples.push({ file, workflow });
    }
  }
  return examples;
}

/** The example whose file name is `name` (e.g. 'manage-a-link.json'). */
export function exampleWorkflow(name: string): WorkflowJson {
  const found = loadExampleWorkflows().find((example) => example.file.endsWith(`/${name}`));
  if (!found) throw new Error(`No example workflow named ${name} in ${EXAMPLE_FOLDERS.join(' or ')}.`);
  return found.workflow;
}
