/**
 * Lookups of the built Zapier zip, through its own handler, on large accounts seeded straight into the
 * sandbox's store, the wanted links among the oldest: Find or Create Link run the way Zapier runs it (the
 * search step; the create step only when the search found nothing; a ThrottledError retried), with UTM
 * fields, twice; the connection's index built across invocations in z.cache; the Link field taking a
 * short URL in Update, Link Stats and Delete.
 */
import { buildCampaignUrl } from '@shortlink/core/operations';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { buildZapierZip } from './support/artifacts';
import { ZapierHandler, type HandlerAnswer } from './support/zapier-handler';

type Item = Record<string, unknown>;

let sandbox: Sandbox;
const handler = new ZapierHandler();

beforeAll(async () => {
  const zip = buildZapierZip();
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  await handler.start(zip);
}, 300_000);

afterAll(async () => {
  await handler.stop();
  await sandbox?.close();
});

function account(label: string) {
  const made = sandbox.createAccount({ name: label, email: `${label}@example.org`, plan: 'business' });
  return { ...made, auth: { apiKey: made.apiKey, baseUrl: sandbox.baseUrl } };
}

/** One invocation, timed. */
async function invoke(method: string, bundle: Item): Promise<HandlerAnswer & { ms: number }> {
  const started = Date.now();
  const answer = await handler.call(method, bundle);
  return { ...answer, ms: Date.now() - started };
}

/**
 * Find or Create Link as Zapier runs it: the search (retried after a ThrottledError, as Zapier does), then
 * the create with the same input when the search returned nothing.
 */
async function findOrCreate(auth: Item, inputData: Item, log: { invocations: number[]; retries: string[] }) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const search = await invoke('searches.find_link.operation.perform', { authData: auth, inputData });
    log.invocations.push(search.ms);
    if (!search.ok) {
      expect(search.error!.name).toBe('ThrottledError');
      log.retries.push(search.error!.message);
      continue;
    }
    const found = search.result!.results as Item[];
    if (found.length > 0) return { link: found[0]!, created: false };
    // The create half of the app's searchOrCreate: the core's Find or Create (hidden create).
    const create = await invoke('creates.find_or_create_link.operation.perform', { authData: auth, inputData });
    log.invocations.push(create.ms);
    if (!create.ok) throw new Error(`create failed: ${create.error?.message}`);
    const made = create.result!.results as Item;
    return { link: made, created: made.created as boolean };
  }
  throw new Error('the search never finished');
}

describe('Find or Create Link with UTM fields on a 10 000-link account, run twice', () => {
  it('finds the oldest links, creates the new one once, and never answers a wrong "none"', async () => {
    const { accountId, auth } = account('zap10k');
    const utm = { utmSource: 'sheet', utmMedium: 'email' };
    // The campaign links made long ago (through the API, so with their tagged targets), then 10 000 newer ones.
    const old = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${auth.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ targetUrl: buildCampaignUrl(`https://example.org/campaign/${i}`, { source: 'sheet', medium: 'email' }) }),
      });
      old.push(String(((await response.json()) as Item).id));
    }
    // Strictly newer than the campaign links (1 ms apart, the oldest of them after the last campaign link).
    sandbox.seedLinks(accountId, 10_000, { label: 'zap10k', endAt: Date.now() + 10_100 });
    const rows = [0, 1, 2, 3].map((i) => ({ targetUrl: `https://example.org/campaign/${i}`, ...utm }));

    // Slow answers, so that one step cannot read the whole account: the index is built across invocations.
    sandbox.setFaults({ latencyMs: 300 });
    const log = { invocations: [] as number[], retries: [] as string[] };
    try {
      const first = [];
      for (const row of rows) first.push(await findOrCreate(auth, row, log));
      expect(first.map((r) => r.created)).toEqual([false, false, false, true]);
      expect(first.slice(0, 3).map((r) => r.link.id)).toEqual(old);
      expect(first[3]!.link.targetUrl).toBe('https://example.org/campaign/3?utm_source=sheet&utm_medium=email');
      // At least one step could not finish and asked Zapier to retry; it said why.
      expect(log.retries.length).toBeGreaterThan(0);
      expect(log.retries[0]).toMatch(/could not finish: [\d,]+ of the account's links were read .*Run it again: the search goes on where it stopped/);

      const rerun = log.invocations.length;
      const second = [];
      for (const row of rows) second.push(await findOrCreate(auth, row, log));
      expect(second.map((r) => r.created)).toEqual([false, false, false, false]);
      expect(second.map((r) => r.link.id)).toEqual(first.map((r) => r.link.id));
      // The rerun is answered from the stored index: one step per row.
      expect(log.invocations.length - rerun).toBe(4);
    } finally {
      sandbox.setFaults(undefined);
    }
    expect(sandbox.links(accountId)).toHaveLength(10_004);
    // Every invocation ended inside Zapier's 30 s (the client's budget is 25 s).
    expect(Math.max(...log.invocations)).toBeLessThan(30_000);
  });
});

describe('the Link field takes a short URL (2 500-link account, the link among the oldest)', () => {
  it('Update, Link Stats and Delete by short URL; an unknown short URL is explained after the whole account; a second delete says it was gone', async () => {
    const { accountId, auth } = account('zap2500');
    sandbox.seedLinks(accountId, 2_500, { label: 'zap2500' });
    const oldest = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id))[0]!;

    const update = await invoke('creates.update_link.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl, title: 'Renamed' } });
    expect(update.ok).toBe(true);
    expect(update.result!.results).toMatchObject({ id: oldest.id, title: 'Renamed' });
    const stats = await invoke('searches.link_stats.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl } });
    expect((stats.result!.results as Item[])[0]).toMatchObject({ linkId: oldest.id });
    const find = await invoke('searches.get_link.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl } });
    expect((find.result!.results as Item[]).map((l) => l.id)).toEqual([oldest.id]);

    // A short URL no link has: Update says so, after the whole account was searched.
    const unknown = await invoke('creates.update_link.operation.perform', { authData: auth, inputData: { link: `${sandbox.baseUrl}/no-such-slug`, title: 'x' } });
    expect(unknown.ok).toBe(false);
    expect(unknown.error!.message).toMatch(/No link of this account has the short URL/);

    const removed = await invoke('creates.delete_link.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl } });
    expect(removed.result!.results).toMatchObject({ shortUrl: oldest.shortUrl, id: oldest.id, deleted: true, alreadyDeleted: false });
    expect(sandbox.links(accountId).some((l) => l.id === oldest.id)).toBe(false);
    // Delete is idempotent (a rerun of the Zap): the same short URL again is a success that says it was gone.
    const again = await invoke('creates.delete_link.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl } });
    expect(again.result!.results).toMatchObject({ shortUrl: oldest.shortUrl, id: null, deleted: true, alreadyDeleted: true });
    // Deleted: a later search by its short URL finds nothing (the stored hit is confirmed by a GET).
    const after = await invoke('searches.get_link.operation.perform', { authData: auth, inputData: { link: oldest.shortUrl } });
    expect(after.result!.results).toEqual([]);
  });
});
