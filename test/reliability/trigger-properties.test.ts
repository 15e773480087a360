/**
 * Trigger correctness (issue 7, item 2; issue 14): random interleavings of creates (bursts larger than a
 * page, equal timestamps, links whose createdAt cannot be read), deletes and polls, with links inserted
 * while a poll pages, restarts from the saved state, overlapping polls, a credential switched to another
 * account, cursors the service refuses, cursors that lead in a circle, empty pages that carry a cursor,
 * and lists served in either order. Every link created after the trigger started (on the account it
 * polls) and not deleted is handed out exactly once, oldest first; nothing older is.
 *
 * - the core's pollNewLinks over an in-memory model of the list (many runs, tiny pages and budgets);
 * - the n8n trigger (built node, harness from the n8n package) over the sandbox, one page per poll;
 * - the Zapier trigger (createAppTester) over the sandbox with Zapier's id deduplication modelled.
 */
import fc from 'fast-check';
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { createPollGuard, type NewLinksState } from '@shortlink/core/host';
import { pollNewLinksWith } from '../../packages/core/src/polls/new-links/poll';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { triggerHost, type TriggerHost } from '../../packages/n8n-nodes-shortlink/test/harness';
import { pollBundle, ZapierDedupe } from '../../packages/zapier/test/helpers';
import { LinkListModel, type ListOrder } from '../support/link-list-model';
import { mapLimit, ZapierRunner } from './support/drivers';
import { FakeClock } from './support/fake-clock';
import { INJECTED_FAILURE, startInterleavingProxy, type InterleavingProxy } from './support/interleaving-proxy';
import { commandArbitrary, runScenario, type OptionalCommand, type TriggerCommand, type TriggerWorld } from './support/trigger-scenario';

/**
 * Random by default; TRIGGER_PROPERTY_SEED replays one (with TRIGGER_PROPERTY_PATH, the failure fast-check
 * printed: its seed and path; run only that test with -t). Every property prints its seed and run count.
 */
const SEED = process.env.TRIGGER_PROPERTY_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.TRIGGER_PROPERTY_SEED);
const REPLAY = { seed: SEED, ...(process.env.TRIGGER_PROPERTY_PATH ? { path: process.env.TRIGGER_PROPERTY_PATH } : {}) };

function printRuns(name: string, numRuns: number): void {
  const replay = 'path' in REPLAY ? `, replaying path ${REPLAY.path}` : '';
  process.stdout.write(`trigger property (${name}): ${numRuns} runs, seed ${SEED}${replay}\n`);
}

/**
 * Whether a stored state holds work for later polls: a catch-up, a first run still going on, a probe
 * below the mark (the next poll may spend its requests there instead of at the top), or the first pass
 * over a list served oldest first. One definition for every world, so that none stops draining early.
 */
function holdsWork(state: NewLinksState | null | undefined): boolean {
  return state?.catchUp !== undefined || state?.firstRun !== undefined || state?.probe !== undefined || state?.settling === true;
}

interface CoreSetup {
  order: ListOrder;
  pageSize: number;
  maxPages: number;
  maxLinks: number;
  emptyPageEvery: number | undefined;
}

/** The core algorithm over two model accounts; checks each poll's request and link limits. */
function coreModelWorld(setup: CoreSetup, withRestarts: boolean): TriggerWorld {
  const accounts = [
    new LinkListModel({ order: setup.order, emptyPageEvery: setup.emptyPageEvery }),
    new LinkListModel({ order: setup.order, emptyPageEvery: setup.emptyPageEvery, firstId: 900_000 }),
  ];
  accounts[0]!.create(5); // links from before the trigger started
  accounts[1]!.create(3);
  let current = 0;
  let state: NewLinksState | undefined;
  let circle = false;
  let complete = true;
  const guard = createPollGuard();
  const model = () => accounts[current]!;
  const pollOnce = async (): Promise<string[] | null> => {
    const service = model();
    service.circling = circle;
    const before = service.requests;
    let result;
    try {
      result = await pollNewLinksWith(service.page, state, {
        pageSize: setup.pageSize,
        maxPages: setup.maxPages,
        maxLinks: setup.maxLinks,
        now: service.now,
        owner: { baseUrl: 'https://short.example.com', credential: `key-${current}`, whoAmI: async () => String(current) },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message === INJECTED_FAILURE) return null; // state untouched
      if (circle && /leads in a circle/.test(message)) return null; // reported, state untouched
      throw error;
    } finally {
      service.circling = false;
      circle = false;
    }
    if (service.requests - before > setup.maxPages) throw new Error(`a poll sent ${service.requests - before} requests (at most ${setup.maxPages})`);
    if (result.links.length > setup.maxLinks) throw new Error(`a poll handed out ${result.links.length} links (at most ${setup.maxLinks})`);
    state = result.state;
    complete = result.complete;
    return result.links.map((link) => link.id);
  };
  return {
    tick: (ms) => accounts.forEach((account) => account.tick(ms)),
    create: async (count) => model().create(count).map((link) => link.id),
    createUndated: async (count) => model().createUndated(count).map((link) => link.id),
    remove: async (pick) => {
      const ids = model().ids();
      const id = ids.length === 0 ? undefined : ids[pick % ids.length];
      if (id !== undefined) model().remove(id);
      return id;
    },
    insertDuringNextPoll: (after, count, created) => model().beforeRequest(after, () => created(model().create(count).map((link) => link.id))),
    failDuringNextPoll: (after) =>
      model().beforeRequest(after, () => {
        throw new Error(INJECTED_FAILURE);
      }),
    poll: pollOnce,
    async overlappingPolls() {
      // As a host runs them: one poll at a time per trigger; the second returns at once with nothing.
      const outcomes = await Promise.all([guard.run('trigger', pollOnce), guard.run('trigger', pollOnce)]);
      if (outcomes.every((outcome) => outcome.ran)) throw new Error('two overlapping polls both ran');
      return outcomes.map((outcome) => (outcome.ran ? outcome.value : []));
    },
    restart() {
      // Only what a host stores survives: the state as JSON.
      if (withRestarts) state = state === undefined ? undefined : (JSON.parse(JSON.stringify(state)) as NewLinksState);
    },
    backlog: () => !complete || holdsWork(state),
    switchAccount: () => {
      current = 1 - current;
    },
    expireCursors: () => model().forgetCursors(),
    circleDuringNextPoll: () => {
      circle = true;
    },
    createdAt: (id) => {
      const link = model().find(id);
      return link && !Number.isNaN(Date.parse(String(link.createdAt))) ? model().createdAt(id) : undefined;
    },
    // Documented limit: while the first poll (or the first pass over an oldest-first list) still goes on
    // over several polls, a link without a readable date may count as there before.
    undatedMayBeOld: () => state?.firstRun !== undefined || state?.settling === true,
  };
}

const coreSetup: fc.Arbitrary<CoreSetup> = fc.record({
  order: fc.constantFrom('newest-first' as const, 'oldest-first' as const),
  pageSize: fc.integer({ min: 1, max: 4 }),
  maxPages: fc.integer({ min: 1, max: 3 }),
  maxLinks: fc.integer({ min: 1, max: 12 }),
  emptyPageEvery: fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }),
});

const CORE_EXTRAS = ['overlappingPoll', 'switchAccount', 'createUndated', 'expireCursors', 'circleDuringPoll'] as const;

describe('core pollNewLinks over a model of the list', () => {
  test('every link exactly once and oldest first, whatever the interleaving; restarts change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(coreSetup, fc.array(commandArbitrary({ burst: 5, burstSpan: 8, extras: [...CORE_EXTRAS] }), { maxLength: 40 }), async (setup, commands) => {
        // A backlog walked one page a poll with every other page empty takes a few thousand polls at most.
        const drain = { maxDrainPolls: 3000 };
        const withRestarts = await runScenario(coreModelWorld(setup, true), commands, drain);
        // The same interleaving without restarts emits the same links in the same polls.
        const without = await runScenario(coreModelWorld(setup, false), commands, drain);
        expect(withRestarts.emissions).toEqual(without.emissions);
      }),
      { numRuns: 150, ...REPLAY },
    );
    printRuns('core over the model', 150);
  });
});

// ---- hosts over the sandbox ----

interface HostFixture {
  sandbox: Sandbox;
  proxy: InterleavingProxy;
  clock: FakeClock;
  zapier: ZapierRunner;
}

async function startFixture(): Promise<HostFixture> {
  const clock = new FakeClock();
  const sandbox = await startSandbox({ now: clock.now, rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
  const proxy = await startInterleavingProxy(sandbox.baseUrl);
  return { sandbox, proxy, clock, zapier: new ZapierRunner() };
}

async function stopFixture(fixture: HostFixture): Promise<void> {
  await fixture.proxy.close();
  await fixture.sandbox.close();
}

/**
 * The world's side that is the same for every host: two fresh accounts (the credential names one of them),
 * links made straight on the sandbox.
 */
function sandboxSide(fixture: HostFixture, runIndex: number) {
  const accounts = [0, 1].map((n) => {
    const { accountId, apiKey } = fixture.sandbox.createAccount({ name: `Run ${runIndex}.${n}`, email: `run${runIndex}.${n}@example.com`, plan: 'business' });
    return { accountId, apiKey, direct: createClient({ baseUrl: fixture.sandbox.baseUrl, apiKey }) as ShortLinkClient };
  });
  let current = 0;
  let made = 0;
  const account = () => accounts[current]!;
  const create = async (count: number): Promise<string[]> => {
    const { direct } = account();
    const links = await mapLimit(Array.from({ length: count }), 8, () => direct.createLink({ targetUrl: `https://example.org/run${runIndex}/${made++}` }));
    return links.map((link) => link.id);
  };
  fixture.proxy.clear();
  return {
    /** The key the credential holds now. */
    apiKey: () => account().apiKey,
    create,
    tick: (ms: number) => fixture.clock.advance(ms),
    remove: async (pick: number) => {
      const ids = fixture.sandbox.links(account().accountId).map((link) => link.id);
      const id = ids.length === 0 ? undefined : ids[pick % ids.length];
      if (id !== undefined) await account().direct.deleteLink(id);
      return id;
    },
    insertDuringNextPoll: (after: number, count: number, created: (ids: string[]) => void) =>
      fixture.proxy.beforeListRequest(after, async () => created(await create(count))),
    failDuringNextPoll: (after: number) => fixture.proxy.failListRequest(after),
    expireCursors: () => fixture.proxy.refuseNextCursor(),
    switchAccount: () => {
      current = 1 - current;
    },
    createdAt: (id: string) => {
      const link = fixture.sandbox.links(account().accountId).find((candidate) => candidate.id === id);
      return link ? Date.parse(link.createdAt) : undefined;
    },
  };
}

/** A poll that died on an injected failure emits nothing (null; the host keeps its old state); others rethrow. */
async function unlessInjected(poll: () => Promise<string[]>): Promise<string[] | null> {
  try {
    return await poll();
  } catch (error) {
    const text = `${(error as Error).message} ${(error as { description?: string }).description ?? ''}`;
    if (text.includes(INJECTED_FAILURE)) return null;
    throw error;
  }
}

const N8N_MAX_PAGES = 1; // one page of 100 per poll: a burst above 100 takes the catch-up path

function n8nWorld(fixture: HostFixture, runIndex: number): TriggerWorld {
  const side = sandboxSide(fixture, runIndex);
  const credentials = () => ({ apiKey: side.apiKey(), baseUrl: fixture.proxy.baseUrl });
  const parameters = { event: 'newLink', options: { maxPages: N8N_MAX_PAGES } };
  const workflowId = `wf-run-${runIndex}`;
  let host: TriggerHost = triggerHost(credentials(), parameters, { workflowId });
  const poll = () =>
    unlessInjected(async () => {
      const items = await host.poll('trigger');
      return (items ?? []).map((item) => String(item.id));
    });
  return {
    ...side,
    poll,
    // n8n starts the next poll while one still runs: the trigger's guard lets one of them run.
    overlappingPolls: () => Promise.all([poll(), poll()]),
    restart() {
      const saved = JSON.parse(JSON.stringify(host.staticData)) as TriggerHost['staticData'];
      host = triggerHost(credentials(), parameters, { workflowId });
      host.staticData = saved;
    },
    switchAccount() {
      side.switchAccount();
      host.credentials = credentials();
    },
    backlog: () => holdsWork(host.staticData.newLink as NewLinksState | undefined),
    async samplePoll() {
      // The editor's "test" run shows a sample and leaves the saved state as it was.
      const before = JSON.stringify(host.staticData);
      await unlessInjected(async () => (await host.poll('manual'), [])).catch((error: unknown) => {
        // An account without links has no sample: the test says so instead.
        if (!/no sample/.test((error as Error).message)) throw error;
      });
      expect(JSON.stringify(host.staticData)).toBe(before);
    },
  };
}

function zapierWorld(fixture: HostFixture, runIndex: number): TriggerWorld {
  const side = sandboxSide(fixture, runIndex);
  const bundle = () => pollBundle(fixture.proxy.baseUrl, side.apiKey(), `zap-${runIndex}`);
  const dedupe = new ZapierDedupe(); // lives on Zapier's side: survives a restart of the app
  const zapier = fixture.zapier; // each run polls as its own Zap, so the z.cache keys differ
  return {
    ...side,
    poll: () =>
      unlessInjected(async () => {
        const items = await zapier.invoke<Array<{ id: string }>>('triggers.new_link.operation.perform', structuredClone(bundle()));
        // Zapier gets a poll's links newest first; handed out, they are read oldest first.
        return dedupe
          .accept(items.map((item) => ({ id: String(item.id) })))
          .map((item) => item.id)
          .reverse();
      }),
    restart: () => zapier.restart(),
    async samplePoll() {
      // A sample leaves the trigger's state alone; the connection's pacing state (what any step's requests
      // learned of the rate limit, packages/zapier/src/sharedPacing.ts) is not trigger state.
      const triggerState = () => JSON.stringify(Object.entries(zapier.cache).filter(([key]) => !key.startsWith('pacing:v1:')));
      const before = triggerState();
      const sample = { ...structuredClone(bundle()), meta: { ...bundle().meta, isLoadingSample: true } };
      await unlessInjected(async () => (await zapier.invoke('triggers.new_link.operation.perform', sample), []));
      expect(triggerState()).toBe(before);
    },
    // The trigger keeps its state in z.cache.
    backlog: () => Object.values(zapier.cache).some((value) => holdsWork((typeof value === 'string' ? JSON.parse(value) : value) as NewLinksState | null)),
  };
}

async function hostProperty(
  name: string,
  makeWorld: (fixture: HostFixture, runIndex: number) => TriggerWorld,
  numRuns: number,
  extras: OptionalCommand[],
  maxPerPoll?: number,
): Promise<void> {
  const fixture = await startFixture();
  let runIndex = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArbitrary({ burst: 101, extras }), { maxLength: 18 }), async (commands: TriggerCommand[]) => {
        await runScenario(makeWorld(fixture, runIndex++), commands, { maxDrainPolls: 40, ...(maxPerPoll === undefined ? {} : { maxPerPoll }) });
      }),
      { numRuns, ...REPLAY },
    );
    printRuns(name, numRuns);
  } finally {
    await stopFixture(fixture);
  }
}

describe('host triggers over the sandbox', () => {
  test('n8n trigger: every link exactly once, oldest first, across bursts, deletes, inserts while paging, restarts, overlapping polls, switched accounts and refused cursors', async () => {
    await hostProperty('n8n', n8nWorld, 12, ['overlappingPoll', 'switchAccount', 'expireCursors']);
  }, 180_000);

  test('Zapier trigger with Zapier id deduplication: every link exactly once, oldest first, at most 100 a poll', async () => {
    await hostProperty('Zapier', zapierWorld, 12, ['switchAccount', 'expireCursors'], 100);
  }, 180_000);

  // Fixed cases the random runs reach only now and then: a backlog that ends exactly on a page boundary
  // after the first resume, with distinct and with equal timestamps.
  test.each([
    ['distinct timestamps', 1],
    ['one shared millisecond', 0],
  ])('n8n trigger: a burst of 150 with %s, one page per poll, is emitted completely', async (_label, tickMs) => {
    const fixture = await startFixture();
    try {
      const commands: TriggerCommand[] = [];
      for (let i = 0; i < 150; i++) commands.push({ kind: 'create', count: 1 }, { kind: 'tick', ms: tickMs });
      const { emissions } = await runScenario(n8nWorld(fixture, 0), commands, { maxDrainPolls: 30 });
      expect(emissions.flat()).toHaveLength(150);
    } finally {
      await stopFixture(fixture);
    }
  }, 60_000);

  test('Zapier trigger: a burst of 530 comes 100 a poll, oldest first, with links inserted while paging and a restart', async () => {
    const fixture = await startFixture();
    try {
      const commands: TriggerCommand[] = [
        { kind: 'create', count: 530 }, // more than five polls' worth: the catch-up path
        { kind: 'insertDuringPoll', afterRequests: 2, count: 3 },
        { kind: 'restart' },
        { kind: 'poll' },
      ];
      const { emissions } = await runScenario(zapierWorld(fixture, 0), commands, { maxDrainPolls: 20, maxPerPoll: 100 });
      expect(emissions.flat()).toHaveLength(533);
    } finally {
      await stopFixture(fixture);
    }
  }, 60_000);

  // Found by the property (seed 129839764, path 11:1:1:1:1:3). All links share one millisecond (the clock
  // did not tick), so the order stays unknown and a poll that meets the mark keeps the page below it as a
  // probe; with one request a poll, the next poll spends it on that probe (or the next page of a longer
  // probe) while a link is made at the top. That link comes after the probe: draining must not stop at
  // polls that did not look at the top. An insert scheduled for a later request than its poll sends is
  // made during a later poll.
  test.each<[string, TriggerCommand[], number]>([
    [
      'a probe of one page',
      [
        { kind: 'create', count: 101 },
        { kind: 'insertDuringPoll', afterRequests: 0, count: 1 },
        { kind: 'insertDuringPoll', afterRequests: 3, count: 1 },
      ],
      103,
    ],
    [
      'a probe over two pages',
      [
        { kind: 'create', count: 301 },
        { kind: 'insertDuringPoll', afterRequests: 8, count: 1 },
      ],
      302,
    ],
  ])('n8n trigger: a link made while polls read %s below the mark comes after it', async (_label, commands, count) => {
    const fixture = await startFixture();
    try {
      const { emissions } = await runScenario(n8nWorld(fixture, 0), commands, { maxDrainPolls: 40 });
      expect(emissions.flat()).toHaveLength(count);
    } finally {
      await stopFixture(fixture);
    }
  }, 60_000);

  // A Zapier poll that meets the mark with the order unknown reads the page below it too: a link made
  // right before that second request (after the top was read) comes at the next poll. Such a poll is not
  // a quiet one to stop draining after.
  test('Zapier trigger: a link made after a poll read the top, while it reads below the mark, comes at the next poll', async () => {
    const fixture = await startFixture();
    try {
      const commands: TriggerCommand[] = [
        { kind: 'create', count: 101 },
        { kind: 'poll' },
        { kind: 'insertDuringPoll', afterRequests: 6, count: 1 }, // two requests a poll: the second drain poll's second
      ];
      const { emissions } = await runScenario(zapierWorld(fixture, 0), commands, { maxDrainPolls: 20, maxPerPoll: 100 });
      expect(emissions.flat()).toHaveLength(102);
    } finally {
      await stopFixture(fixture);
    }
  }, 60_000);

  test('n8n trigger: a cursor refused in the middle of a catch-up loses and repeats nothing', async () => {
    const fixture = await startFixture();
    try {
      const commands: TriggerCommand[] = [
        { kind: 'create', count: 250 },
        { kind: 'poll' }, // one page a poll: the walk stops with a saved cursor
        { kind: 'expireCursors' },
        { kind: 'poll' },
        { kind: 'overlappingPoll' },
      ];
      const { emissions } = await runScenario(n8nWorld(fixture, 0), commands, { maxDrainPolls: 30 });
      expect(emissions.flat()).toHaveLength(250);
    } finally {
      await stopFixture(fixture);
    }
  }, 60_000);
});
