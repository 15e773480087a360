/**
 * The new-links algorithm: unit cases for every way a service can surprise it, and a property test over
 * a model of the list (test/support/link-list-model.ts) that checks exactly-once delivery and order.
 */
import fc from 'fast-check';
import { createPollGuard } from '../src/faces/host';
import { pollNewLinksWith } from '../src/polls/new-links/poll';
import type { Link, LinkPage } from '../src/portable';
import type { NewLinksState } from '../src/faces/host';
import type { PollNewLinksOptions } from '../src/polls/new-links/poll';
import type { LinkPageFetcher } from '../src/polls/new-links/poll-run';
import type { PollNewLinksInternals } from '../src/polls/new-links/poll';
import { LinkListModel } from '../../../test/support/link-list-model';

type Options = PollNewLinksOptions & PollNewLinksInternals;

/** A poll against the model with the model's clock; the state goes through JSON as a host stores it. */
async function poll(model: LinkListModel, state: NewLinksState | undefined, options: Options = {}) {
  const before = model.requests;
  const result = await pollNewLinksWith(model.page, state, { now: model.now, ...options });
  return { ...result, ids: result.links.map((l) => l.id), requests: model.requests - before, state: JSON.parse(JSON.stringify(result.state)) as NewLinksState };
}

/**
 * Polls until a poll that started without a probe (so it read the top of the list) is complete and hands
 * out nothing; returns every id handed out, in order.
 */
async function drain(model: LinkListModel, state: NewLinksState, options: Options = {}, maxPolls = 500) {
  const ids: string[] = [];
  let current = state;
  let polls = 0;
  let requests = 0;
  const perPoll: string[][] = [];
  for (; polls < maxPolls; ) {
    const probed = current?.probe !== undefined;
    const result = await poll(model, current, options);
    polls++;
    requests += result.requests;
    current = result.state;
    ids.push(...result.ids);
    perPoll.push(result.ids);
    if (result.complete && result.ids.length === 0 && !probed) break;
  }
  return { ids, polls, requests, state: current, perPoll };
}

const ascending = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));

describe('first poll', () => {
  test('sets the mark from the newest link, hands out nothing, one request, learns the order', async () => {
    const model = new LinkListModel();
    model.create(3);
    model.tick(1000);
    const [newest] = model.create(1);
    const first = await poll(model, undefined, { pageSize: 3 });
    expect(first.ids).toEqual([]);
    expect(first.requests).toBe(1);
    expect(first.complete).toBe(true);
    expect(first.state).toEqual({ version: 2, order: 'newest-first', mark: { createdAt: newest!.createdAt, ids: [newest!.id] } });
  });

  test('on an empty account every later link is new', async () => {
    const model = new LinkListModel();
    const first = await poll(model, undefined);
    expect(first.state.mark).toBeNull();
    const made = model.create(2).map((l) => l.id);
    expect((await poll(model, first.state)).ids).toEqual(made);
  });

  test('an empty first page that carries a next cursor is not the end of the list', async () => {
    const model = new LinkListModel({ emptyPageEvery: 1 });
    for (let i = 0; i < 5; i++) {
      model.tick(1);
      model.create(1);
    }
    // The model answers every request with a cursor empty once; the top page is not.
    const fetcher: LinkPageFetcher = async (request) => {
      if (request.cursor === undefined) return { links: [], nextCursor: JSON.stringify({ at: Number.MAX_SAFE_INTEGER, id: 0, issued: model.requests, salt: -1 }) };
      model.emptyPageEvery = undefined;
      return model.page(request);
    };
    const first = await pollNewLinksWith(fetcher, undefined, { now: model.now });
    expect(first.state.mark?.ids).toEqual(['1004']);
    const later = model.create(1).map((l) => l.id);
    const second = await pollNewLinksWith(fetcher, first.state, { now: model.now });
    expect(second.links.map((l) => l.id)).toEqual(later);
  });

  test('empty pages with cursors beyond the page budget: the first run goes on at the next poll', async () => {
    let served = 0;
    const fetcher: LinkPageFetcher = async (request) => {
      served++;
      if (served <= 3) return { links: [], nextCursor: `empty-${served}` };
      expect(request.cursor).toBe('empty-3');
      return { links: [{ ...new LinkListModel().create(1)[0]!, id: '7' }], nextCursor: null };
    };
    const first = await pollNewLinksWith(fetcher, undefined, { maxPages: 2 });
    expect(first.state).toMatchObject({ mark: null, firstRun: { cursor: 'empty-2' } });
    expect(first.complete).toBe(false);
    const second = await pollNewLinksWith(fetcher, first.state, { maxPages: 2 });
    expect(second.state.mark?.ids).toEqual(['7']);
    expect(second.state.firstRun).toBeUndefined();
  });

  test('links sharing the newest millisecond beyond one page are all collected', async () => {
    const model = new LinkListModel();
    model.create(7); // one instant
    let { state } = await poll(model, undefined, { pageSize: 2, maxPages: 2 });
    expect(state.firstRun).toBeDefined();
    ({ state } = await poll(model, state, { pageSize: 2, maxPages: 2 }));
    ({ state } = await poll(model, state, { pageSize: 2, maxPages: 2 }));
    expect(state.firstRun).toBeUndefined();
    expect(state.mark?.ids.sort()).toEqual(['1000', '1001', '1002', '1003', '1004', '1005', '1006']);
    model.tick(0);
    const later = model.create(2).map((l) => l.id);
    expect((await drain(model, state, { pageSize: 2, maxPages: 2 })).ids).toEqual(later);
  });

  test('"since": the links created at or after the date come out, oldest first', async () => {
    const model = new LinkListModel();
    model.create(3);
    model.tick(60_000);
    const since = new Date(model.now()).toISOString();
    const recent = [...model.create(4), ...model.create(3)].map((l) => l.id);
    const { ids, perPoll } = await drain(model, undefined as never, { since, pageSize: 2, maxLinks: 3 });
    expect(ids).toEqual(recent);
    expect(perPoll[0]).toEqual(recent.slice(0, 3));
  });

  test('"since" must carry a time zone', async () => {
    const model = new LinkListModel();
    await expect(pollNewLinksWith(model.page, undefined, { since: '2026-03-01T00:00:00' })).rejects.toMatchObject({ field: 'since' });
    expect(model.requests).toBe(0);
  });
});

describe('later polls', () => {
  test('a quiet poll costs one request', async () => {
    const model = new LinkListModel();
    for (let i = 0; i < 30; i++) {
      model.tick(1);
      model.create(1);
    }
    const { state } = await poll(model, undefined, { pageSize: 10 });
    const quiet = await poll(model, state, { pageSize: 10 });
    expect(quiet.ids).toEqual([]);
    expect(quiet.requests).toBe(1);
    expect(quiet.state).toEqual(state);
  });

  test('new links come oldest → newest, including ones sharing the mark millisecond', async () => {
    const model = new LinkListModel();
    model.create(3);
    const { state } = await poll(model, undefined);
    // the next links land on the mark's millisecond
    const same = model.create(2).map((l) => l.id);
    model.tick(5);
    const later = model.create(2).map((l) => l.id);
    expect((await poll(model, state)).ids).toEqual([...same, ...later]);
  });

  test.each([1, 99, 100, 101, 250, 1000])('a burst of %i costs at most ceil(K/100) + 1 requests when it fits one poll', async (k) => {
    const model = new LinkListModel();
    model.create(150);
    const { state } = await poll(model, undefined);
    model.tick(1);
    const burst = model.create(k).map((l) => l.id);
    const result = await poll(model, state);
    expect(result.ids).toEqual(burst);
    expect(result.requests).toBeLessThanOrEqual(Math.ceil(k / 100) + 1);
    expect(result.complete).toBe(true);
  });

  test('a backlog of 20 000: first links in the first poll, oldest first, each once, ≤ 2 × 200 + 10 requests', async () => {
    const model = new LinkListModel();
    model.create(500);
    const { state } = await poll(model, undefined);
    for (let i = 0; i < 20_000; i++) {
      model.tick(i % 3 === 0 ? 1 : 0); // some share a millisecond
      model.create(1);
    }
    const backlog = model.ids().slice(500);
    const { ids, requests, perPoll } = await drain(model, state);
    expect(ids).toEqual(backlog);
    expect(perPoll[0]!.length).toBeGreaterThan(0);
    expect(perPoll[0]).toEqual(backlog.slice(0, 1000));
    expect(requests).toBeLessThanOrEqual(2 * 200 + 10);
  });

  test('a walk longer than a poll goes on where it stopped; every page is read at most twice', async () => {
    const model = new LinkListModel();
    model.create(10);
    const { state } = await poll(model, undefined, { pageSize: 10 });
    model.tick(1);
    const backlog = model.create(200).map((l) => l.id); // 20 pages of 10
    const reads = new Map<string, number>();
    const fetcher: LinkPageFetcher = async (request) => {
      const page = await model.page(request);
      const first = page.links[0]?.id ?? 'empty';
      reads.set(first, (reads.get(first) ?? 0) + 1);
      return page;
    };
    const ids: string[] = [];
    let current = state;
    let polls = 0;
    for (; polls < 50; polls++) {
      const result = await pollNewLinksWith(fetcher, current, { pageSize: 10, maxPages: 4, maxLinks: 30 });
      expect(result.links.length).toBeLessThanOrEqual(30);
      current = JSON.parse(JSON.stringify(result.state)) as NewLinksState;
      ids.push(...result.links.map((l) => l.id));
      if (result.complete && result.links.length === 0) break;
    }
    expect(ids).toEqual(backlog);
    // Every page of the backlog twice at most: walked once, read once more to hand it out. (The top of
    // the list is read by every poll, as a quiet poll must.)
    expect([...reads.entries()].filter(([first, n]) => n > 2 && first !== backlog[backlog.length - 1])).toEqual([]);
    expect(reads.size).toBeGreaterThanOrEqual(20);
  });

  // The n8n property's seed 129839764 (test/reliability/trigger-properties.test.ts), through the core: all
  // links share one millisecond, so no page tells the order and a poll that meets the mark keeps the page
  // below it as a probe. With one request a poll, the next poll reads only that probe: a link made right
  // before it is not on that page, and is handed out by the poll after, which reads the top again.
  test('a link made while a poll reads only the probe below the mark comes at the next poll', async () => {
    const model = new LinkListModel();
    const onePage = { maxPages: 1 };
    let { state } = await poll(model, undefined, onePage);
    expect(state.mark).toBeNull();
    const burst = model.create(101).map((l) => l.id);
    const perPoll: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const result = await poll(model, state, onePage);
      perPoll.push(result.ids);
      state = result.state;
    }
    expect(perPoll).toEqual([[], burst.slice(0, 1), burst.slice(1)]);
    // The backlog is handed out; the next poll meets the mark on the top page and keeps the page below.
    const met = await poll(model, state, onePage);
    expect(met.ids).toEqual([]);
    expect(met.state.probe).toBeDefined();
    let made: string[] = [];
    model.beforeRequest(0, () => (made = model.create(1).map((l) => l.id)));
    const probing = await poll(model, met.state, onePage);
    expect(made).toHaveLength(1);
    expect(probing.requests).toBe(1);
    expect(probing.ids).toEqual([]);
    expect(probing.state.catchUp).toBeUndefined();
    const next = await poll(model, probing.state, onePage);
    expect(next.ids).toEqual(made);
    const { ids } = await drain(model, next.state, onePage, 20);
    expect(ids).toEqual([]);
  });

  test('maxLinks caps what one poll hands out; the rest follows in order', async () => {
    const model = new LinkListModel();
    model.create(5);
    const { state } = await poll(model, undefined);
    const made = model.create(25).map((l) => l.id);
    const { perPoll } = await drain(model, state, { maxLinks: 10 });
    expect(perPoll.slice(0, 3)).toEqual([made.slice(0, 10), made.slice(10, 20), made.slice(20)]);
  });

  test('links deleted between polls are skipped, including the one the mark points at', async () => {
    const model = new LinkListModel();
    const [marked] = model.create(1);
    const { state } = await poll(model, undefined);
    model.tick(1);
    const [a, b, c] = model.create(3);
    model.remove(b!.id);
    model.remove(marked!.id);
    expect((await poll(model, state)).ids).toEqual([a!.id, c!.id]);
  });

  test('a stored version-1 state keeps its mark', async () => {
    const model = new LinkListModel();
    const [old] = model.create(1);
    model.tick(1);
    const made = model.create(2).map((l) => l.id);
    const v1 = { version: 1, mark: { createdAt: old!.createdAt, ids: [old!.id] }, resume: { cursor: 'x' } };
    expect((await poll(model, v1 as never)).ids).toEqual(made);
  });

  test('a stored state that is not ours is refused, naming the state', async () => {
    const model = new LinkListModel();
    await expect(pollNewLinksWith(model.page, { version: 2, mark: { createdAt: 'x', ids: [] } })).rejects.toMatchObject({ field: 'state' });
    await expect(pollNewLinksWith(model.page, { version: 2, mark: null, tailCursor: '' } as NewLinksState)).rejects.toMatchObject({ field: 'state' });
    await expect(pollNewLinksWith(model.page, { version: 3 } as never)).rejects.toMatchObject({ field: 'state' });
    expect(model.requests).toBe(0);
  });
});

describe('a list served oldest first', () => {
  test('is recognised from createdAt; new links come oldest first; a quiet poll reads one page', async () => {
    const model = new LinkListModel({ order: 'oldest-first' });
    model.create(3);
    model.tick(5);
    model.create(3);
    const first = await poll(model, undefined, { pageSize: 4 });
    expect(first.ids).toEqual([]);
    expect(first.state.order).toBe('oldest-first');
    const made = model.create(6).map((l) => l.id);
    const second = await poll(model, first.state, { pageSize: 4 });
    expect(second.ids).toEqual(made);
    const quiet = await poll(model, second.state, { pageSize: 4 });
    expect(quiet.ids).toEqual([]);
    expect(quiet.requests).toBe(1);
  });

  test('pages of one link: the first poll reads a second page to learn the order', async () => {
    const model = new LinkListModel({ order: 'oldest-first' });
    for (let i = 0; i < 4; i++) {
      model.tick(1);
      model.create(1);
    }
    const first = await poll(model, undefined, { pageSize: 1 });
    expect(first.state.order).toBe('oldest-first');
    model.tick(1);
    const made = model.create(2).map((l) => l.id);
    expect((await drain(model, first.state, { pageSize: 1 })).ids).toEqual(made);
  });

  test('a service that changes its order between polls is followed without a gap', async () => {
    const model = new LinkListModel();
    for (let i = 0; i < 4; i++) {
      model.tick(1);
      model.create(1);
    }
    let { state } = await poll(model, undefined, { pageSize: 2 });
    model.tick(1);
    const a = model.create(3).map((l) => l.id);
    model.order = 'oldest-first';
    const first = await drain(model, state, { pageSize: 2 });
    expect(first.ids).toEqual(a);
    expect(first.state.order).toBe('oldest-first');
    model.order = 'newest-first';
    model.tick(1);
    const b = model.create(3).map((l) => l.id);
    ({ state } = first);
    expect((await drain(model, state, { pageSize: 2 })).ids).toEqual(b);
  });
});

describe('refused cursors, unreadable dates, cycles', () => {
  test('a refused resume cursor of the walk restarts from the top without losing links', async () => {
    const model = new LinkListModel();
    model.create(3);
    const { state } = await poll(model, undefined, { pageSize: 2 });
    model.tick(1);
    const backlog = model.create(9).map((l) => l.id);
    const stopped = await poll(model, state, { pageSize: 2, maxPages: 2 });
    expect(stopped.state.catchUp?.walkCursor).toBeDefined();
    model.forgetCursors();
    const after = await poll(model, stopped.state, { pageSize: 2, maxPages: 50 });
    expect(after.notices.join(' ')).toMatch(/refused the saved cursor .*422/);
    expect([...stopped.ids, ...after.ids]).toEqual(backlog);
  });

  test('a refused segment cursor in the middle of a catch-up: nothing lost, nothing repeated', async () => {
    const model = new LinkListModel();
    model.create(3);
    const { state } = await poll(model, undefined, { pageSize: 2 });
    model.tick(1);
    const backlog = model.create(15).map((l) => l.id);
    const first = await poll(model, state, { pageSize: 2, maxLinks: 4 });
    expect(first.ids).toEqual(backlog.slice(0, 4));
    expect(first.state.catchUp?.segments.length).toBeGreaterThan(0);
    model.forgetCursors();
    const rest = await drain(model, first.state, { pageSize: 2, maxLinks: 4 });
    expect([...first.ids, ...rest.ids]).toEqual(backlog);
  });

  test('a link whose createdAt cannot be read is handed out once; on the first poll it counts as there', async () => {
    const model = new LinkListModel();
    model.create(2);
    model.createUndated(2);
    const first = await poll(model, undefined);
    expect(first.state.mark).not.toBeNull();
    expect(first.state.undated?.sort()).toEqual(['1002', '1003']);
    model.tick(1);
    const made = [...model.create(1), ...model.createUndated(2), ...model.create(1)].map((l) => l.id);
    const second = await poll(model, first.state);
    expect(second.ids).toEqual(made);
    const third = await poll(model, second.state);
    expect(third.ids).toEqual([]);
  });

  test('a first page of links without createdAt still gives a state the next poll accepts', async () => {
    const model = new LinkListModel();
    model.createUndated(3);
    const first = await poll(model, undefined);
    expect(first.state.mark).toBeNull();
    const made = model.create(2).map((l) => l.id);
    expect((await poll(model, first.state)).ids).toEqual(made);
  });

  test('a cursor that leads back in a circle is reported, not followed forever', async () => {
    const model = new LinkListModel();
    model.create(3);
    const { state } = await poll(model, undefined, { pageSize: 2 });
    model.tick(1);
    model.create(9);
    model.circling = true;
    await expect(poll(model, state, { pageSize: 2 })).rejects.toThrow(/leads in a circle .*continuation .* a second time/);
    model.circling = false;
    expect((await drain(model, state, { pageSize: 2 })).ids).toHaveLength(9);
  });

  test('pages that only repeat earlier links under new cursors are reported too', async () => {
    const model = new LinkListModel();
    model.create(2);
    const { state } = await poll(model, undefined, { pageSize: 2 });
    model.tick(1);
    model.create(6);
    let n = 0;
    const repeating: LinkPageFetcher = async (request) => {
      const page = await model.page({ limit: request.limit }); // ignores the cursor: always the top page
      return { ...page, nextCursor: `fresh-${n++}` };
    };
    await expect(pollNewLinksWith(repeating, state, { pageSize: 2 })).rejects.toThrow(/leads in a circle/);
  });

  test('a page in no order is an error that says so', async () => {
    const model = new LinkListModel();
    model.create(1);
    model.tick(5);
    model.create(1);
    model.tick(5);
    model.create(1);
    const shuffled: LinkPageFetcher = async (request) => {
      const page = await model.page(request);
      const [a, b, c] = page.links;
      return { ...page, links: [b!, a!, c!] };
    };
    await expect(pollNewLinksWith(shuffled, undefined, {})).rejects.toThrow(/in no order/);
  });
});

describe('bound to its account', () => {
  const owner = (credential: string, account: string, asked: string[]) => ({
    baseUrl: 'https://short.example.com',
    credential,
    whoAmI: async () => {
      asked.push(credential);
      return account;
    },
  });

  test('another account starts over at its newest link instead of replaying it', async () => {
    const a = new LinkListModel();
    const b = new LinkListModel({ firstId: 500_000 });
    a.create(2);
    b.create(300);
    const asked: string[] = [];
    const first = await pollNewLinksWith(a.page, undefined, { owner: owner('key-a', '1', asked) });
    expect(first.state.owner).toEqual({ baseUrl: 'https://short.example.com', credential: 'key-a', account: '1' });
    const switched = await pollNewLinksWith(b.page, first.state, { owner: owner('key-b', '2', asked) });
    expect(switched.links).toEqual([]);
    expect(switched.notices.join(' ')).toMatch(/another account/);
    expect(switched.state.owner?.account).toBe('2');
    b.tick(1);
    const made = b.create(2).map((l) => l.id);
    const next = await pollNewLinksWith(b.page, switched.state, { owner: owner('key-b', '2', asked) });
    expect(next.links.map((l) => l.id)).toEqual(made);
    expect(asked).toEqual(['key-a', 'key-b']); // /me once per credential, not every poll
  });

  test('a new key of the same account keeps the state', async () => {
    const a = new LinkListModel();
    a.create(2);
    const asked: string[] = [];
    const first = await pollNewLinksWith(a.page, undefined, { owner: owner('key-1', '7', asked) });
    a.tick(1);
    const made = a.create(2).map((l) => l.id);
    const rotated = await pollNewLinksWith(a.page, first.state, { owner: owner('key-2', '7', asked) });
    expect(rotated.links.map((l) => l.id)).toEqual(made);
    expect(rotated.notices).toEqual([]);
  });

  test('another base URL is another service', async () => {
    const a = new LinkListModel();
    a.create(2);
    const first = await pollNewLinksWith(a.page, undefined, { owner: owner('key', '7', []) });
    a.tick(1);
    a.create(2);
    const moved = await pollNewLinksWith(a.page, first.state, { owner: { ...owner('key', '7', []), baseUrl: 'https://other.example.com' } });
    expect(moved.links).toEqual([]);
    expect(moved.notices).toHaveLength(1);
  });
});

describe('overlapping polls', () => {
  test('with the poll guard the second of two overlapping polls hands out nothing', async () => {
    const model = new LinkListModel();
    model.create(2);
    let state = (await poll(model, undefined)).state;
    model.tick(1);
    const made = model.create(3).map((l) => l.id);
    const guard = createPollGuard();
    const once = () => guard.run('workflow:node', async () => {
      const result = await pollNewLinksWith(model.page, state, { now: model.now });
      state = result.state;
      return result.links.map((l) => l.id);
    });
    const [one, two] = await Promise.all([once(), once()]);
    expect(one).toEqual({ ran: true, value: made });
    expect(two).toMatchObject({ ran: false });
    expect((await once())).toEqual({ ran: true, value: [] });
  });

  test('without it both would hand out the same links (what the guard prevents)', async () => {
    const model = new LinkListModel();
    model.create(2);
    const { state } = await poll(model, undefined);
    model.tick(1);
    model.create(3);
    const [one, two] = await Promise.all([pollNewLinksWith(model.page, state), pollNewLinksWith(model.page, state)]);
    expect(one.links.map((l) => l.id)).toEqual(two.links.map((l) => l.id));
  });
});

// ---- property: random interleavings against the model ----

type Command =
  | { kind: 'create'; count: number }
  | { kind: 'createUndated'; count: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'poll' }
  | { kind: 'overlap' }
  | { kind: 'forgetCursors' }
  | { kind: 'switchAccount' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), count: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), count: fc.integer({ min: 5, max: 25 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('createUndated' as const), count: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 1000) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('poll' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('overlap' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetCursors' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switchAccount' as const) }) },
);

/** Fixed, so a CI run is reproducible; NEW_LINKS_PROPERTY_SEED and NEW_LINKS_PROPERTY_RUNS for more. */
const SEED = Number(process.env.NEW_LINKS_PROPERTY_SEED ?? 3434);
const RUNS = Number(process.env.NEW_LINKS_PROPERTY_RUNS ?? 400);

describe('pollNewLinksWith (property, against the model)', () => {
  const newLinksProperty = fc.asyncProperty(
        fc.record({
          order: fc.constantFrom('newest-first' as const, 'oldest-first' as const),
          pageSize: fc.integer({ min: 1, max: 4 }),
          maxPages: fc.integer({ min: 1, max: 4 }),
          maxLinks: fc.integer({ min: 1, max: 12 }),
          // Cursors that expire before a backlog is through cannot be caught up by any walk: lifetimes are long.
          cursorLifetime: fc.option(fc.constantFrom(600, 2000), { nil: undefined }),
          emptyPageEvery: fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }),
          initial: fc.integer({ min: 0, max: 8 }),
        }),
        fc.array(command, { maxLength: 40 }),
        async (setup, commands) => {
          const accounts = [
            new LinkListModel({ order: setup.order, cursorLifetime: setup.cursorLifetime, emptyPageEvery: setup.emptyPageEvery }),
            new LinkListModel({ order: setup.order, cursorLifetime: setup.cursorLifetime, emptyPageEvery: setup.emptyPageEvery, firstId: 900_000 }),
          ];
          let current = 0;
          accounts[0]!.create(setup.initial);
          accounts[1]!.create(3);
          let stored: string | undefined; // the state as the host keeps it: JSON
          const guard = createPollGuard();
          const limits = { pageSize: setup.pageSize, maxPages: setup.maxPages, maxLinks: setup.maxLinks };
          let required = new Set<string>(); // created on the polled account after the state was bound to it
          let stateAccount = -1; // the account the stored state belongs to (-1: none yet)
          const either = new Set<string>(); // may come out once, or be counted as there before
          const emitted = new Set<string>();
          let lastEmitted = -1;

          const onePoll = async () => {
            const model = accounts[current]!;
            const before = model.requests;
            const result = await pollNewLinksWith(model.page, stored === undefined ? undefined : (JSON.parse(stored) as NewLinksState), {
              ...limits,
              now: model.now,
              owner: { baseUrl: 'https://short.example.com', credential: `key-${current}`, whoAmI: async () => String(current) },
            });
            expect(model.requests - before).toBeLessThanOrEqual(setup.maxPages);
            expect(result.links.length).toBeLessThanOrEqual(setup.maxLinks);
            stored = JSON.stringify(result.state);
            if (stateAccount !== current) {
              // A new account starts over at its newest link: its links made before count as there before.
              expect(result.links).toEqual([]);
              stateAccount = current;
              required = new Set();
              lastEmitted = -1;
            }
            for (const link of result.links) {
              if (emitted.has(link.id)) throw new Error(`link ${link.id} handed out twice`);
              if (!required.has(link.id) && !either.has(link.id)) throw new Error(`link ${link.id} existed before the trigger started on this account`);
              // Oldest first by creation time (links of one millisecond may come in either order). A link
              // without a readable createdAt has no place in that order a trigger could know.
              if (!Number.isNaN(Date.parse(String(link.createdAt)))) {
                const at = model.createdAt(link.id)!;
                if (at < lastEmitted) throw new Error(`link ${link.id} handed out after a newer one`);
                lastEmitted = at;
              }
              emitted.add(link.id);
            }
            return result;
          };
          const guarded = () => guard.run('trigger', onePoll);

          await onePoll();
          for (const c of commands) {
            const model = accounts[current]!;
            switch (c.kind) {
              case 'create':
              case 'createUndated':
                // Documented limit: a link without a readable createdAt that appears while the first poll
                // (or the first pass over a list served oldest first) is still going on over several polls
                // may be counted as there before.
                const pending = stored === undefined ? undefined : (JSON.parse(stored) as NewLinksState);
                if (c.kind === 'createUndated' && pending !== undefined && (pending.firstRun !== undefined || pending.settling)) {
                  for (const link of model.createUndated(c.count)) either.add(link.id);
                  break;
                }
                for (const link of c.kind === 'create' ? model.create(c.count) : model.createUndated(c.count)) if (stateAccount === current) required.add(link.id);
                break;
              case 'tick':
                model.tick(c.ms);
                break;
              case 'delete': {
                const ids = model.ids();
                const id = ids[c.pick % Math.max(1, ids.length)];
                if (id !== undefined) {
                  model.remove(id);
                  required.delete(id);
                }
                break;
              }
              case 'poll':
                await onePoll();
                break;
              case 'overlap': {
                const [a, b] = await Promise.all([guarded(), guarded()]);
                expect(a.ran && b.ran).toBe(false);
                break;
              }
              case 'forgetCursors':
                model.forgetCursors();
                break;
              case 'switchAccount':
                current = 1 - current; // the credential now names the other account
                break;
            }
          }
          // The world goes quiet: the trigger catches up within a bounded number of polls. A run of empty
          // polls longer than six walks over the whole account (empty pages can double a walk) means it is done.
          const pages = Math.ceil(accounts[current]!.ids().length / setup.pageSize);
          const patience = Math.ceil(pages / setup.maxPages) * 6 + 20;
          let quiet = 0;
          for (let i = 0; i < 3000 && quiet < patience; i++) {
            const result = await onePoll();
            quiet = result.links.length === 0 ? quiet + 1 : 0;
          }
          expect(quiet).toBe(patience);
          const missing = [...required].filter((id) => !emitted.has(id));
          expect(missing).toEqual([]);
        },
      );

  test(`every link created after the start is handed out exactly once, oldest first; nothing older (${RUNS} runs, seed ${SEED})`, async () => {
    console.log(`new-links property: ${RUNS} runs, seed ${SEED}`);
    await fc.assert(newLinksProperty, { numRuns: RUNS, seed: SEED });
  });

  // Known gap (docs/guarantees.md, "Known gaps"), found by the random seed 1905688329: the newest link has no
  // readable createdAt when the trigger starts on an account, the walk's cursor is then refused, and a link is
  // created in the very millisecond the trigger started (the service's clock). The restarted first run can
  // tell it from the links there before only by time, so it is counted as there before and never handed out.
  test.failing('known gap: a link made in the millisecond the first run started, after an undated newest link and a refused cursor, is handed out', async () => {
    const setup = { order: 'newest-first' as const, pageSize: 1, maxPages: 1, maxLinks: 1, cursorLifetime: undefined, emptyPageEvery: undefined, initial: 0 };
    const commands: Command[] = [{ kind: 'switchAccount' }, { kind: 'createUndated', count: 1 }, { kind: 'poll' }, { kind: 'forgetCursors' }, { kind: 'create', count: 1 }];
    await fc.assert(newLinksProperty, { examples: [[setup, commands]], numRuns: 1, seed: SEED });
  });
});

// Keep the helpers honest: `ascending` is what "creation order" means for the model's ids.
test('the model hands out ids in creation order', () => {
  const model = new LinkListModel();
  expect(ascending(model.create(3).map((l: Link) => l.id))).toEqual(['1000', '1001', '1002']);
  const page: Promise<LinkPage> = model.page({ limit: 1 });
  return expect(page).resolves.toMatchObject({ links: [{ id: '1002' }] });
});
