/**
 * The Zapier app's own process, as on Zapier (each app runs in its own Lambda process): the bench forks
 * this worker and sends it invocations over IPC. Keeping Zapier out of the bench process matters beyond
 * realism: zapier-platform-core's Lambda handler kills its process once RSS passes 450 MB after 250 runs,
 * and the bench process (sandboxes, n8n-workflow) would pass that.
 *
 * Messages in: { id, type: 'invoke', kind, key, bundle, freshCache? } | { id, type: 'countStatuses', baseUrl } |
 * { id, type: 'statuses' }. `freshCache` empties the z.cache stand-in first: an invocation that finds
 * nothing of the earlier ones there (the bench's "without shared state" rows). Each is answered with { id, ok: true, value } or { id, ok: false, error }.
 */
import { createAppTester } from 'zapier-platform-core';
import { countStatuses, type StatusCounter } from '../lib/status-counter';
import { ZAPIER_APP } from '../hosts/zapier-paths';

type Perform = (...args: unknown[]) => unknown;
type Request =
  | { id: number; type: 'invoke'; kind: 'creates' | 'triggers' | 'searches'; key: string; bundle: Record<string, unknown>; freshCache?: boolean }
  | { id: number; type: 'countStatuses'; baseUrl: string }
  | { id: number; type: 'statuses' };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const app = require(ZAPIER_APP) as Record<'creates' | 'triggers' | 'searches', Record<string, { operation: { perform: Perform } }>>;
const appTester = createAppTester(app as never) as unknown as (perform: Perform, bundle: unknown, clearZcacheBeforeUse?: boolean) => Promise<unknown>;
let counter: StatusCounter | undefined;

async function handle(request: Request): Promise<unknown> {
  switch (request.type) {
    case 'invoke': {
      const definition = app[request.kind][request.key];
      if (!definition) throw new Error(`The Zapier app has no ${request.kind}.${request.key}`);
      return appTester(definition.operation.perform, request.bundle, request.freshCache === true);
    }
    case 'countStatuses':
      counter?.stop();
      counter = countStatuses(request.baseUrl);
      return null;
    case 'statuses':
      return Object.fromEntries(counter?.byStatus ?? []);
  }
}

process.on('message', (request: Request) => {
  handle(request).then(
    (value) => process.send!({ id: request.id, ok: true, value }),
    (error: unknown) => process.send!({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
