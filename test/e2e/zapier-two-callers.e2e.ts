/**
 * The create rule through the built Zapier zip's own handler (issue 26; docs/guarantees.md, "The create
 * rule"): each Zap step is a new invocation with a new client, as Zapier runs it. Two steps create the same
 * target while the first answer is lost after the write, then a set of lost answers over the sandbox's knobs
 * (list order, list lag, the two clocks, no Date header): never one id for two steps, never a second link of
 * one step, and a step not told an id says the outcome is unknown and how to check.
 */
import { startSandbox, type CreateFault, type Sandbox, type ServiceQuirks } from '@shortlink/sandbox';
import { buildZapierZip } from './support/artifacts';
import { ZapierHandler } from './support/zapier-handler';

type Item = Record<string, unknown>;

let sandbox: Sandbox;
const handler = new ZapierHandler();
let run = 0;

beforeAll(async () => {
  const zip = buildZapierZip();
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 10_000, windowSeconds: 60 } });
  await handler.start(zip);
}, 300_000);

afterAll(async () => {
  await handler.stop();
  await sandbox?.close();
});

/** A fresh account with older links; its key. */
function account(quirks: ServiceQuirks = {}): { accountId: string; apiKey: string } {
  run++;
  sandbox.setQuirks(quirks);
  const made = sandbox.createAccount({ name: `Zap ${run}`, email: `zap${run}@example.com`, plan: 'business' });
  sandbox.seedLinks(made.accountId, 30, { label: `zap${run}`, endAt: Date.now() - 3_600_000, spacingMs: 1000 });
  return made;
}

type Told = { id: string } | { unknown: true } | { failed: string };

async function createStep(apiKey: string, inputData: Item): Promise<Told> {
  const answer = await handler.call('creates.create_link.operation.perform', { authData: { apiKey, baseUrl: sandbox.baseUrl }, inputData });
  if (answer.ok) return { id: String((answer.result!.results as Item).id) };
  const message = answer.error?.message ?? '';
  return /The link may have been created, and .*Look it up by its target URL \(Find\)/.test(message) ? { unknown: true } : { failed: message };
}

it('two steps, one target, the first answer lost after the write: never one id for both, never a third link', async () => {
  const { accountId, apiKey } = account();
  const targetUrl = 'https://example.org/zap/two-callers';
  sandbox.setFaults({ createFaults: ['serverError'] });
  const told = await Promise.all([createStep(apiKey, { targetUrl }), createStep(apiKey, { targetUrl })]);
  sandbox.setFaults(undefined);
  const stored = sandbox.links(accountId).filter((link) => link.targetUrl === targetUrl);
  expect(stored).toHaveLength(2);
  const ids = told.flatMap((entry) => ('id' in entry ? [entry.id] : []));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(stored.map((link) => link.id)).toContain(id);
  expect(told.filter((entry) => 'failed' in entry)).toEqual([]);
  expect(ids.length).toBeGreaterThanOrEqual(1);
}, 120_000);

const STORIES: Array<{ quirks: ServiceQuirks; faults: CreateFault[] }> = [
  { quirks: { listOrder: 'newest first' }, faults: ['reset'] },
  { quirks: { listOrder: 'oldest first' }, faults: ['serverError'] },
  { quirks: { listOrder: 'newest first', listLagMs: 1_000 }, faults: ['gatewayTimeout'] },
  { quirks: { listOrder: 'oldest first', listLagMs: 1_000 }, faults: ['resetBefore', 'brokenBody'] },
  { quirks: { sendDate: false }, faults: ['serverError'] },
  { quirks: { dateOffsetMs: -3_600_000, createdAtOffsetMs: 120_000 }, faults: ['reset'] },
  { quirks: { createdAtOffsetMs: -120_000 }, faults: ['serverErrorBefore', 'serverError'] },
];

it.each(STORIES.map((story) => [JSON.stringify(story), story] as const))('a lost answer (%s): one link at most, reported as created or unknown', async (_name, story) => {
  const { accountId, apiKey } = account(story.quirks);
  const targetUrl = `https://example.org/zap/story/${run}`;
  sandbox.setFaults({ createFaults: story.faults });
  const told = await createStep(apiKey, { targetUrl, title: 'Spring' });
  sandbox.setFaults(undefined);
  sandbox.setQuirks(undefined);
  const stored = sandbox.links(accountId).filter((link) => link.targetUrl === targetUrl);
  expect(stored.length).toBeLessThanOrEqual(1);
  if ('id' in told) expect(stored.map((link) => link.id)).toEqual([told.id]);
  if ('failed' in told) expect(stored).toEqual([]);
}, 60_000);

/**
 * Many callers (issue 34; docs/guarantees.md, "Many callers"): a Zap's "New Spreadsheet Row" starts one run
 * per row, in parallel, and Zapier spreads them over containers. Six runs of Find or Create Link for one URL
 * at once, on three containers (three handler processes of the built zip, two runs each): each run is the
 * search half, then — finding nothing — the hidden create half, as Zapier runs a search-or-create.
 */
describe('six Find or Create Link runs of one URL at once, on three containers', () => {
  const containers: ZapierHandler[] = [];
  beforeAll(async () => {
    const zip = buildZapierZip();
    for (let i = 0; i < 3; i++) {
      const container = new ZapierHandler();
      await container.start(zip);
      containers.push(container);
    }
  }, 300_000);
  afterAll(async () => {
    await Promise.all(containers.map((container) => container.stop()));
  });

  async function findOrCreateRun(container: ZapierHandler, apiKey: string, inputData: Item): Promise<{ id: string; created: boolean } | { failed: string }> {
    const bundle = { authData: { apiKey, baseUrl: sandbox.baseUrl }, inputData };
    const search = await container.call('searches.find_link.operation.perform', bundle);
    if (!search.ok) return { failed: search.error?.message ?? 'search failed' };
    const found = search.result!.results as Item[];
    if (found.length > 0) return { id: String(found[0]!.id), created: false };
    const create = await container.call('creates.find_or_create_link.operation.perform', bundle);
    if (!create.ok) return { failed: create.error?.message ?? 'create failed' };
    const made = create.result!.results as Item;
    return { id: String(made.id), created: made.created === true };
  }

  it('leave one link, all six told its id, one of them "created"', async () => {
    const { accountId, apiKey } = account();
    const inputData = { targetUrl: 'https://example.org/zap/sheet-row', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'autumn' };
    const told = await Promise.all(Array.from({ length: 6 }, (_, run) => findOrCreateRun(containers[run % 3]!, apiKey, inputData)));
    const stored = sandbox.links(accountId).filter((link) => link.targetUrl.startsWith('https://example.org/zap/sheet-row'));
    console.log(`zapier, six runs at once on three containers: ${stored.length} link(s); told ${JSON.stringify(told)}`);
    expect(told.filter((entry) => 'failed' in entry)).toEqual([]);
    expect(stored).toHaveLength(1);
    expect(told.map((entry) => (entry as { id: string }).id)).toEqual(told.map(() => stored[0]!.id));
    expect(told.filter((entry) => (entry as { created: boolean }).created)).toHaveLength(1);
  }, 120_000);
});
