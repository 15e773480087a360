/** Workflows the end-to-end suites build for the real n8n (the shipped examples live in examples/). */
import type { WorkflowJson } from '../../../scripts/n8n/instance';

/** A trigger node as the workflow needs it (its id and position are filled in). */
export interface TriggerNode {
  name: string;
  type: string;
  typeVersion: number;
  parameters: Record<string, unknown>;
  webhookId?: string;
}

export interface ShortenRowsOptions {
  id: string;
  name: string;
  trigger: TriggerNode;
  /** An n8n expression (without `={{ }}`) for the rows: an array of `{ url }`. */
  rows: string;
  /** Failed items go on as error items (the node's "Continue" setting) instead of stopping the run. */
  continueOnFail?: boolean;
}

/** trigger → a Set node making the rows → one item per row → Short Link Create of `{{ $json.url }}`: a sheet of URLs. */
export function shortenRowsWorkflow({ id, name, trigger, rows, continueOnFail }: ShortenRowsOptions): WorkflowJson {
  return {
    id,
    name,
    nodes: [
      { ...trigger, id: `${id}-1`, position: [0, 0] },
      {
        id: `${id}-2`,
        name: 'Rows',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [200, 0],
        parameters: { mode: 'raw', jsonOutput: `={{ { rows: ${rows} } }}`, options: {} },
      },
      { id: `${id}-3`, name: 'One item per row', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'rows', options: {} } },
      {
        id: `${id}-4`,
        name: 'Shorten',
        type: 'n8n-nodes-shortlink.shortLink',
        typeVersion: 1,
        position: [600, 0],
        ...(continueOnFail ? { onError: 'continueRegularOutput' } : {}),
        parameters: { resource: 'link', operation: 'create', targetUrl: '={{ $json.url }}' },
        credentials: { shortLinkApi: { id: '', name: '' } },
      },
    ],
    connections: {
      [trigger.name]: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
      Rows: { main: [[{ node: 'One item per row', type: 'main', index: 0 }]] },
      'One item per row': { main: [[{ node: 'Shorten', type: 'main', index: 0 }]] },
    },
  };
}
