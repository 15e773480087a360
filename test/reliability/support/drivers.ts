/**
 * One small interface over the three ways a user reaches the service: the core directly, the built n8n
 * node (through the n8n package's own test harness) and the Zapier app (through createAppTester). The
 * soak and the isolation tests run the same scenario through each.
 */
import { createClient, ShortLinkError, type ShortLinkClient } from '@shortlink/core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { locator, runNode, type TestCredentials } from '../../../packages/n8n-nodes-shortlink/test/harness';
type ZapierHelpers = typeof import('../../../packages/zapier/test/helpers');

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string; error: unknown };

export interface LinkInput {
  targetUrl: string;
  title?: string;
  slug?: string;
  domain?: string;
}

export interface LinkDriver {
  readonly name: 'core' | 'n8n' | 'zapier';
  createLinks(inputs: LinkInput[]): Promise<Outcome<IDataObject>[]>;
  /** Find or Create per input: the existing link with that target URL, else a new one. */
  findOrCreate(inputs: LinkInput[]): Promise<Outcome<IDataObject>[]>;
  updateTitles(changes: Array<{ id: string; title: string }>): Promise<Outcome<IDataObject>[]>;
  deleteLinks(ids: string[]): Promise<Outcome<unknown>[]>;
  getLink(id: string): Promise<Outcome<IDataObject>>;
  getStats(id: string): Promise<Outcome<unknown>>;
  findByTargetUrl(targetUrl: string): Promise<Outcome<IDataObject[]>>;
  listLinks(): Promise<Outcome<IDataObject[]>>;
}

export interface Account {
  baseUrl: string;
  apiKey: string;
}

/** Runs `work` over the items with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const description = (error as Error & { description?: unknown }).description;
    return typeof description === 'string' && description !== '' ? `${error.message} ${description}` : error.message;
  }
  return String(error);
}

async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, message: messageOf(error), error };
  }
}

// ---- core ----

export function coreDriver(client: ShortLinkClient, concurrency = 4): LinkDriver {
  return {
    name: 'core',
    createLinks: (inputs) => mapLimit(inputs, concurrency, (input) => attempt(async () => (await client.createLink(input)) as unknown as IDataObject)),
    findOrCreate: (inputs) =>
      mapLimit(inputs, concurrency, (input) => attempt(async () => (await client.findOrCreateLink(input)).link as unknown as IDataObject)),
    updateTitles: (changes) =>
      mapLimit(changes, concurrency, ({ id, title }) => attempt(async () => (await client.updateLink(id, { title })) as unknown as IDataObject)),
    deleteLinks: (ids) => mapLimit(ids, concurrency, (id) => attempt(() => client.deleteLink(id))),
    getLink: (id) => attempt(async () => (await client.getLink(id)) as unknown as IDataObject),
    getStats: (id) => attempt(() => client.getLinkStats(id)),
    findByTargetUrl: (targetUrl) => attempt(async () => (await client.findLinks({ targetUrl })) as unknown as IDataObject[]),
    listLinks: () =>
      attempt(async () => {
        const all: IDataObject[] = [];
        for await (const link of client.iterateLinks()) all.push(link as unknown as IDataObject);
        return all;
      }),
  };
}

export function standaloneCoreDriver(account: Account, options: { sleep?: (ms: number) => Promise<void>; now?: () => number } = {}): LinkDriver {
  const clientOptions: Parameters<typeof createClient>[0] = { baseUrl: account.baseUrl, apiKey: account.apiKey };
  if (options.sleep) clientOptions.sleep = options.sleep;
  if (options.now) clientOptions.now = options.now;
  return coreDriver(createClient(clientOptions));
}

// ---- n8n: one node run per operation over all items, continueOnFail as a bulk workflow would ----

/** An n8n output item as an outcome: continueOnFail puts { error, description } into failed items. */
function itemOutcome(item: INodeExecutionData | undefined): Outcome<IDataObject> {
  if (!item) return { ok: false, message: 'no output item', error: undefined };
  if (item.error || typeof item.json.error === 'string') {
    const message = [item.json.error, item.json.description].filter((part) => typeof part === 'string').join(' ');
    return { ok: false, message, error: item.error };
  }
  return { ok: true, value: item.json };
}

/** Output items per input item (pairedItem), so that an operation giving 0..n items maps back. */
function byInputItem(output: INodeExecutionData[], count: number): INodeExecutionData[][] {
  const grouped: INodeExecutionData[][] = Array.from({ length: count }, () => []);
  for (const item of output) {
    const paired = item.pairedItem;
    const index = typeof paired === 'number' ? paired : Array.isArray(paired) ? paired[0]?.item : paired?.item;
    if (typeof index === 'number') grouped[index]!.push(item);
  }
  return grouped;
}

export function n8nDriver(account: Account): LinkDriver {
  const credentials: TestCredentials = { apiKey: account.apiKey, baseUrl: account.baseUrl };
  const bulk = async (count: number, parameters: (index: number) => IDataObject): Promise<INodeExecutionData[]> => {
    if (count === 0) return [];
    return runNode({ credentials, continueOnFail: true, items: Array.from({ length: count }, () => ({})), parameters: (i) => parameters(i) as never });
  };
  const single = async (parameters: IDataObject): Promise<INodeExecutionData[]> => runNode({ credentials, parameters: parameters as never });
  const newLinks = async (operation: 'create' | 'findOrCreate', inputs: LinkInput[]): Promise<Outcome<IDataObject>[]> => {
    const output = await bulk(inputs.length, (i) => {
      const input = inputs[i]!;
      const additionalFields: IDataObject = {};
      if (input.title !== undefined) additionalFields.title = input.title;
      if (input.slug !== undefined) additionalFields.slug = input.slug;
      const domain = input.domain === undefined ? {} : { domain: locator('hostname', input.domain) };
      return { resource: 'link', operation, targetUrl: input.targetUrl, additionalFields, ...domain };
    });
    return byInputItem(output, inputs.length).map((items) => itemOutcome(items[0]));
  };
  return {
    name: 'n8n',
    createLinks: (inputs) => newLinks('create', inputs),
    findOrCreate: (inputs) => newLinks('findOrCreate', inputs),
    async updateTitles(changes) {
      const output = await bulk(changes.length, (i) => ({
        resource: 'link',
        operation: 'update',
        link: locator('id', changes[i]!.id),
        updateFields: { title: changes[i]!.title },
      }));
      return byInputItem(output, changes.length).map((items) => itemOutcome(items[0]));
    },
    async deleteLinks(ids) {
      const output = await bulk(ids.length, (i) => ({ resource: 'link', operation: 'delete', link: locator('id', ids[i]!) }));
      return byInputItem(output, ids.length).map((items) => itemOutcome(items[0]));
    },
    getLink: (id) => attempt(async () => (await single({ resource: 'link', operation: 'get', link: locator('id', id) }))[0]!.json),
    getStats: (id) => attempt(async () => (await single({ resource: 'stats', operation: 'get', link: locator('id', id) })).map((item) => item.json)),
    findByTargetUrl: (targetUrl) =>
      // The links found, none when nothing matches (not the node's default "an item saying so").
      attempt(async () => (await single({ resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl, ifNoMatch: 'outputNothing' })).map((item) => item.json)),
    listLinks: () => attempt(async () => (await single({ resource: 'link', operation: 'getAll', returnAll: true })).map((item) => item.json)),
  };
}

// ---- Zapier: one app invocation per action, as Zapier runs one Zap step at a time ----

/** The perform function at a path such as 'creates.create_link.operation.perform' of the app. */
function performAt(app: unknown, path: string): unknown {
  let current: unknown = app;
  for (const part of path.split('.')) current = (current as Record<string, unknown> | undefined)?.[part];
  if (typeof current !== 'function') throw new Error(`The Zapier app has no function at ${path}`);
  return current;
}

/** zcacheTestObj (z.cache of the app tester) is in the runtime but not in the typings. */
type ZapierTester = ReturnType<ZapierHelpers['newAppTester']> & { zcacheTestObj: Record<string, unknown> };

/**
 * Invokes the Zapier app through createAppTester. zapier-platform-core exits the process after 250
 * invocations once the resident memory passes 450 MB (a guard for its Lambda workers, where a fresh
 * process takes over); a jest worker holding n8n, Zapier and the sandbox passes that mark. So every
 * 200 invocations the app and zapier-platform-core are loaded afresh (jest.isolateModules), which
 * restarts that count; z.cache (zcacheTestObj) is carried over.
 */
export class ZapierRunner {
  private helpers!: ZapierHelpers;
  private tester!: ZapierTester;
  private invocations = 0;

  constructor() {
    this.renew({});
  }

  get cache(): Record<string, unknown> {
    return this.tester.zcacheTestObj;
  }

  /** A restart of the app: a new tester, only z.cache (kept by Zapier, as JSON) survives. */
  restart(): void {
    const cache = JSON.parse(JSON.stringify(this.cache)) as ZapierTester['zcacheTestObj'];
    this.tester = this.helpers.newAppTester() as ZapierTester;
    this.tester.zcacheTestObj = cache;
  }

  invoke<T>(path: string, bundle: object): Promise<T> {
    if (++this.invocations > 200) this.renew(this.cache);
    return this.tester(performAt(this.helpers.app, path) as never, bundle as never) as Promise<T>;
  }

  private renew(cache: Record<string, unknown>): void {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      this.helpers = require('../../../packages/zapier/test/helpers') as ZapierHelpers;
    });
    this.tester = this.helpers.newAppTester() as ZapierTester;
    this.tester.zcacheTestObj = cache;
    this.invocations = 0;
  }
}

export function zapierDriver(account: Account, concurrency = 4): LinkDriver {
  const runner = new ZapierRunner();
  const authData = { apiKey: account.apiKey, baseUrl: account.baseUrl };
  const invoke = <T>(method: string, inputData: IDataObject): Promise<T> => runner.invoke<T>(method, { authData, inputData });
  return {
    name: 'zapier',
    createLinks: (inputs) =>
      mapLimit(inputs, concurrency, (input) => attempt(() => invoke<IDataObject>('creates.create_link.operation.perform', { ...input }))),
    // Zapier's search-or-create (find_link): the search first, the create only when it found nothing.
    findOrCreate: (inputs) =>
      mapLimit(inputs, concurrency, (input) =>
        attempt(async () => {
          const [found] = await invoke<IDataObject[]>('searches.find_link.operation.perform', { targetUrl: input.targetUrl });
          return found ?? (await invoke<IDataObject>('creates.find_or_create_link.operation.perform', { ...input }));
        }),
      ),
    updateTitles: (changes) =>
      mapLimit(changes, concurrency, ({ id, title }) => attempt(() => invoke<IDataObject>('creates.update_link.operation.perform', { link: id, title }))),
    deleteLinks: (ids) => mapLimit(ids, concurrency, (id) => attempt(() => invoke('creates.delete_link.operation.perform', { link: id }))),
    getLink: (id) =>
      attempt(async () => {
        const found = await invoke<IDataObject[]>('searches.get_link.operation.perform', { link: id });
        if (found.length === 0) throw new Error(`Find Link found no link with the ID ${id}`);
        return found[0]!;
      }),
    getStats: (id) => attempt(() => invoke('searches.link_stats.operation.perform', { link: id })),
    findByTargetUrl: (targetUrl) => attempt(() => invoke<IDataObject[]>('searches.find_link.operation.perform', { targetUrl })),
    // The New Link trigger without a Zap id returns the newest page.
    listLinks: () => attempt(() => invoke<IDataObject[]>('triggers.new_link.operation.perform', {})),
  };
}

/** True when the thrown value is one of the core's typed errors (not a crash). */
export function isTypedCoreError(error: unknown): error is ShortLinkError {
  return error instanceof ShortLinkError;
}
