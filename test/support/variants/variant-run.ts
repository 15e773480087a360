/**
 * Runs one row of the variant table: a seeded sandbox (230 links), the stand-in in front of it with the
 * row's choices, a recording server standing for "another host" (the foreign next-page links and the
 * served document's `servers` point there), then every operation in every client, each judged on what its
 * user would get. Nothing here throws for a failed operation: the result says what went wrong.
 */
import { startRecordingServer } from '../hostile-servers';
import type { ClientDriver, Connection } from './variant-clients';
import { operationsOf, type Operation, type VariantCase } from './variant-cases';
import { startVariantService } from './variant-service';
import { SEEDED_DOMAIN, startSeededSandbox, type SeededSandbox } from './seeded-sandbox';

export const SEEDED_LINKS = 230;
/** Links created between two polls of the trigger: more than one page of 100. */
export const BURST = 120;
const WRONG_KEY = 'sl_variant_wrong_key_0000000000000000000';
const FULL_LINK_FIELDS = ['id', 'slug', 'shortUrl', 'targetUrl', 'title', 'domain', 'active', 'blocked', 'hasPassword', 'clicks', 'expiresAt', 'createdAt'];

export interface OperationResult {
  ok: boolean;
  /** What happened, in a few words (the failure when not ok). */
  detail: string;
}

export interface VariantResult {
  variant: VariantCase;
  /** client name → operation → result. */
  clients: Record<string, Partial<Record<Operation, OperationResult>>>;
  /** Requests that reached the other host (must be none: the key would have gone with them). */
  foreignRequests: number;
}

async function createDirectly(seeded: SeededSandbox, targetUrl: string): Promise<string> {
  const response = await fetch(`${seeded.sandbox.baseUrl}/api/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${seeded.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetUrl }),
  });
  if (response.status !== 201) throw new Error(`creating ${targetUrl} answered ${response.status}`);
  return String(((await response.json()) as { id: unknown }).id);
}

async function burst(seeded: SeededSandbox, label: string): Promise<string[]> {
  const ids: string[] = [];
  // One after another: the trigger's mark relies on creation order, as on the real service.
  for (let index = 0; index < BURST; index++) ids.push(await createDirectly(seeded, `https://example.org/burst/${label}/${index}`));
  return ids;
}

function sameList(actual: string[], expected: string[]): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} of ${expected.length} links`;
  const wrong = actual.findIndex((id, index) => id !== expected[index]);
  return wrong < 0 ? undefined : `link ${wrong + 1} is ${actual[wrong]}, expected ${expected[wrong]}`;
}

export async function runVariant(variant: VariantCase, drivers: ClientDriver[]): Promise<VariantResult> {
  const seeded = await startSeededSandbox(SEEDED_LINKS, variant.id);
  const foreign = await startRecordingServer();
  const service = await startVariantService(seeded.sandbox.baseUrl, variant.choices, foreign.origin);
  const pro = seeded.sandbox.createAccount({ name: 'Pro plan', email: 'pro@example.com', plan: 'pro' });
  const connection: Connection = { baseUrl: service.baseUrl, apiKey: seeded.apiKey };
  const linksNow = () => seeded.sandbox.links(seeded.accountId);
  const oldest = () => linksNow().at(-1)!;
  const result: VariantResult = { variant, clients: {}, foreignRequests: 0 };

  /** Runs `action` where the row expects a loud stop: ok when it threw the expected message. */
  async function expectStop(action: () => Promise<unknown>, message: RegExp): Promise<OperationResult> {
    try {
      await action();
      return { ok: false, detail: 'answered instead of stopping' };
    } catch (error) {
      const text = `${(error as Error).message} ${(error as { description?: string }).description ?? ''}`;
      return message.test(text) ? { ok: true, detail: 'stopped with the message' } : { ok: false, detail: `stopped with another message: ${text.slice(0, 300)}` };
    }
  }

  async function check(driver: ClientDriver, operation: Operation, updateIndex: number): Promise<OperationResult> {
    const stop = variant.fails?.operations.includes(operation) ? variant.fails.message : undefined;
    switch (operation) {
      case 'list all': {
        if (stop) return expectStop(() => driver.listAll(connection), stop);
        const expected = linksNow().map((link) => link.id);
        const wrong = sameList(await driver.listAll(connection), expected);
        return wrong ? { ok: false, detail: wrong } : { ok: true, detail: `${expected.length} links` };
      }
      case 'find': {
        const target = oldest();
        if (stop) return expectStop(() => driver.find(connection, target.targetUrl), stop);
        const found = await driver.find(connection, target.targetUrl);
        return found.length === 1 && found[0] === target.id ? { ok: true, detail: 'the oldest link' } : { ok: false, detail: `found [${found.join(', ')}]` };
      }
      case 'find-or-create': {
        const target = oldest();
        const before = linksNow().length;
        if (stop) {
          const stopped = await expectStop(() => driver.findOrCreate(connection, target.targetUrl), stop);
          return linksNow().length === before ? stopped : { ok: false, detail: 'created a link' };
        }
        const answer = await driver.findOrCreate(connection, target.targetUrl);
        if (answer.created || answer.id !== target.id || linksNow().length !== before) return { ok: false, detail: `${answer.created ? 'created' : 'found'} ${answer.id}` };
        return { ok: true, detail: 'found, none created' };
      }
      case 'update': {
        const link = linksNow().at(-1 - updateIndex)!;
        const title = `Renamed in ${driver.name}`;
        const item = await driver.update(connection, link.id, title);
        const missing = FULL_LINK_FIELDS.filter((field) => !(field in item));
        if (missing.length > 0) return { ok: false, detail: `the item lacks ${missing.join(', ')}` };
        if (item.title !== title || item.slug !== link.slug || item.id !== link.id) return { ok: false, detail: `the item says ${JSON.stringify({ id: item.id, slug: item.slug, title: item.title })}` };
        return { ok: true, detail: 'the whole link' };
      }
      case 'trigger': {
        const runId = `${variant.id}-${driver.name}`;
        if (stop) {
          let delivered = 0;
          const stopped = await expectStop(async () => {
            const run = await driver.startTrigger(connection, runId);
            await burst(seeded, runId);
            for (let poll = 0; poll < 5; poll++) delivered += (await run.poll()).length;
          }, stop);
          return delivered === 0 ? stopped : { ok: false, detail: `delivered ${delivered} links before stopping` };
        }
        const run = await driver.startTrigger(connection, runId);
        const created = await burst(seeded, runId);
        const delivered: string[] = [];
        for (let poll = 0, quiet = 0; poll < 20 && quiet < 2; poll++) {
          const ids = await run.poll();
          delivered.push(...ids);
          quiet = ids.length === 0 ? quiet + 1 : 0;
        }
        const twice = delivered.length - new Set(delivered).size;
        const wrong = sameList([...delivered].sort(), [...created].sort());
        if (twice > 0 || wrong) return { ok: false, detail: `${twice} delivered twice; ${wrong ?? ''}` };
        return { ok: true, detail: `${created.length} new links, each once` };
      }
      case 'delete': {
        const id = await createDirectly(seeded, `https://example.org/delete-me/${driver.name}`);
        await driver.delete(connection, id);
        return linksNow().some((link) => link.id === id) ? { ok: false, detail: 'still there' } : { ok: true, detail: 'deleted' };
      }
      case 'domain picker': {
        const listed = await driver.domainPicker(connection);
        return listed.includes(SEEDED_DOMAIN) ? { ok: true, detail: listed.join(', ') } : { ok: false, detail: `lists [${listed.join(', ')}]` };
      }
      case 'connection label': {
        const label = await driver.connectionLabel(connection);
        return label === 'Seeded Business (seeded@example.com)' ? { ok: true, detail: label } : { ok: false, detail: `"${label}"` };
      }
      case 'wrong key': {
        const shown = await driver.accountFailure({ baseUrl: service.baseUrl, apiKey: WRONG_KEY });
        return /reconnect/i.test(shown) && !shown.includes(WRONG_KEY) ? { ok: true, detail: 'reconnect advice' } : { ok: false, detail: shown.slice(0, 300) };
      }
      case 'plan without API access': {
        const shown = await driver.accountFailure({ baseUrl: service.baseUrl, apiKey: pro.apiKey });
        return /upgrade/i.test(shown) ? { ok: true, detail: 'upgrade advice' } : { ok: false, detail: shown.slice(0, 300) };
      }
    }
  }

  try {
    for (const [index, driver] of drivers.entries()) {
      const results: Partial<Record<Operation, OperationResult>> = {};
      for (const operation of operationsOf(variant)) {
        try {
          results[operation] = await check(driver, operation, index + 1);
        } catch (error) {
          results[operation] = { ok: false, detail: `failed: ${((error as Error).message ?? String(error)).slice(0, 300)}` };
        }
      }
      result.clients[driver.name] = results;
    }
  } finally {
    result.foreignRequests = foreign.calls.length;
    await service.close();
    await foreign.close();
    await seeded.close();
  }
  return result;
}
