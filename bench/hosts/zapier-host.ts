/**
 * The Zapier app as the benchmarks drive it: the BUILT app run through zapier-platform-core's
 * createAppTester, as the app's own tests do, in a worker process of its own (children/zapier-worker.ts,
 * which says why). Each invoke is one Zapier invocation with its own z and bundle (so its own core client);
 * the invocations of one worker share its z.cache stand-in, like the runs of one Zap.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export { ZAPIER_APP } from './zapier-paths';

const WORKER = join(__dirname, '..', 'children', 'zapier-worker.ts');
const ROOT = join(__dirname, '..', '..');

export interface ZapierBundle {
  authData: { baseUrl: string; apiKey: string };
  inputData: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface ZapierWorker {
  /** `freshCache`: the invocation finds an empty z.cache, nothing of the earlier ones. */
  invoke(kind: 'creates' | 'triggers' | 'searches', key: string, bundle: ZapierBundle, options?: { freshCache?: boolean }): Promise<unknown>;
  /** Starts counting the statuses the worker receives from baseUrl (see lib/status-counter). */
  countStatuses(baseUrl: string): Promise<void>;
  statuses(): Promise<Record<string, number>>;
  close(): void;
}

export function startZapierWorker(): ZapierWorker {
  const child: ChildProcess = fork(WORKER, {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    // zapier-platform-core prints a memory line per invocation (its Lambda log) unless NODE_ENV is "test…".
    // The sandbox is on loopback: the app's local-development switch (packages/zapier/src/baseUrl.ts).
    env: { ...process.env, NODE_ENV: 'test', SHORTLINK_ZAPIER_LOCAL_DEV: 'true' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  child.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(new Error(reply.error));
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`The Zapier worker exited (code ${code})`));
    pending.clear();
  });
  const call = (message: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, ...message });
    });
  return {
    invoke: (kind, key, bundle, options = {}) => call({ type: 'invoke', kind, key, bundle, freshCache: options.freshCache === true }),
    countStatuses: async (baseUrl) => {
      await call({ type: 'countStatuses', baseUrl });
    },
    statuses: async () => (await call({ type: 'statuses' })) as Record<string, number>,
    close: () => {
      // node-fetch's keep-alive sockets could hold the worker open after the IPC channel closes.
      if (child.connected) child.disconnect();
      child.kill();
    },
  };
}
