/** Shared by the Zapier app tests: the app under test, bundles, and a model of Zapier's polling dedupe. */
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
 * Runs the perform-based choices of an input field, as Zapier does for a dropdown: `owner` is the
 * operation ('creates.update_link'), `key` the field; the bundle's meta carries Zapier's paging_token.
 */
export function runChoices<T = unknown>(appTester: AppTester, owner: string, key: string, bundle: object): Promise<T> {
  const operation = owner.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], app) as
    | { operation?: { inputFields?: Array<{ key?: string; choices?: { perform?: unknown } }> } }
    | undefined;
  const perform = operation?.operation?.inputFields?.find((field) => field.key === key)?.choices?.perform;
  if (typeof perform !== 'function') throw new Error(`${owner} has no field ${key} with perform-based choices`);
  return (appTester as unknown as (func: unknown, bundle: object) => Promise<T>)(perform, bundle);
}
