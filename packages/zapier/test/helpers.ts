/** Shared by the Zapier app tests: the app under test, bundles, and a model of Zapier's polling dedupe. */
import nock from 'nock';
import { createAppTester } from 'zapier-platform-core';
import app from '../src';

export { app };

export function newAppTester() {
  return createAppTester(app);
}

export type AppTester = ReturnType<typeof newAppTester>;

/**
 * Runs a method of the app by its path, as Zapier addresses it: 'triggers.new_link', 'creates.create_link',
 * 'searches.find_link' (→ <path>.operation.perform) or 'authentication.test'.
 */
export function run<T = unknown>(appTester: AppTester, path: string, bundle: object): Promise<T> {
  const method = path.startsWith('authentication.') ? path : `${path}.operation.perform`;
  // createAppTester wants the function itself; it finds its path in the app again.
  const func = method.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], app);
  if (typeof func !== 'function') throw new Error(`The app has no function at ${method}`);
  return (appTester as unknown as (func: unknown, bundle: object) => Promise<T>)(func, bundle);
}

export function authData(baseUrl: string, apiKey: string) {
  return { baseUrl, apiKey };
}

/** A bundle as Zapier sends it to a live poll of a Zap (the Zap id keys the trigger's state). */
export function pollBundle(baseUrl: string, apiKey: string, zapId = 'zap-1', meta: Record<string, unknown> = {}) {
  return { authData: authData(baseUrl, apiKey), inputData: {}, meta: { zap: { id: zapId }, ...meta } };
}

/**
 * Zapier's deduplication for polling triggers: the first poll of a Zap only fills the table of seen ids;
 * afterwards an item fires the Zap once, the first time its id shows up.
 */
export class ZapierDedupe {
  private readonly seen = new Set<string>();
  private primed = false;

  /** Returns the items that would fire the Zap. */
  accept(items: Array<{ id: string }>): Array<{ id: string }> {
    const fresh = items.filter((item) => !this.seen.has(item.id));
    for (const item of items) this.seen.add(item.id);
    if (!this.primed) {
      this.primed = true;
      return [];
    }
    return fresh;
  }
}

/**
 * z.cursor talks to Zapier's RPC service, which stores the dropdown's "load more" cursor between calls.
 * This simulates that service (per storeKey) with nock; `cursors` shows what the app stored. Call
 * `restore()` in a finally block.
 */
export function simulateCursorRpc(): { cursors: Map<string, string>; restore(): void } {
  const cursors = new Map<string, string>();
  process.env.ZAPIER_DEPLOY_KEY = 'test-deploy-key';
  const rpc = nock('https://rpc.zapier.com')
    .persist()
    .post('/cli')
    .reply(200, (_uri, body) => {
      const call = (typeof body === 'string' ? JSON.parse(body) : body) as { id: string; storeKey: string; method: string; params: string[] };
      if (call.method === 'set_cursor') cursors.set(call.storeKey, call.params[0]!);
      return { id: call.id, result: call.method === 'get_cursor' ? (cursors.get(call.storeKey) ?? null) : null };
    });
  return {
    cursors,
    restore() {
      nock.removeInterceptor({ hostname: 'rpc.zapier.com', proto: 'https', method: 'POST', path: '/cli' });
      rpc.persist(false);
      delete process.env.ZAPIER_DEPLOY_KEY;
    },
  };
}
