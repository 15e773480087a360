/** The new-links algorithm: unit cases and a property test against a model service. */
import fc from 'fast-check';
import { pollNewLinksWith } from '../src/portable';
import type { Link, LinkPage, LinkPageFetcher, NewLinksState } from '../src/portable';
import { link } from './helpers';

const T0 = Date.parse('2026-03-01T09:30:00.000Z');

/** A model of GET /links: newest first (createdAt desc, id desc), keyset cursors, mutable between pages. */
class ModelService {
  links: Link[] = [];
  clock = T0;
  private counter = 0;
  requests = 0;


  insert(count: number, advanceMs: number): void {
    for (let i = 0; i < count; i++) {
      this.clock += advanceMs;
      this.counter++;
      // Numeric ids growing with creation, as the document's order (createdAt desc, then id desc) implies.
      const id = this.counter;
      this.links.push(link({ id: String(id), slug: `s${id}`, createdAt: new Date(this.clock).toISOString() }));
    }
  }

  remove(fraction: number): void {
    if (this.links.length === 0) return;
    this.links.splice(Math.floor(fraction * this.links.length), 1);
  }

  private sorted(): Link[] {
    return [...this.links].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || Number(b.id) - Number(a.id));
  }

  fetcher(beforeEachPage: () => void = () => undefined): LinkPageFetcher {
    return async ({ limit, cursor }): Promise<LinkPage> => {
      beforeEachPage();
      this.requests++;
      let rows = this.sorted();
      if (cursor) {
        const [t, id] = JSON.parse(cursor) as [number, number];
        rows = rows.filter((l) => Date.parse(l.createdAt) < t || (Date.parse(l.createdAt) === t && Number(l.id) < id));
      }
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor = rows.length > limit && last ? JSON.stringify([Date.parse(last.createdAt), Number(last.id)]) : null;
      return { links: page, nextCursor };
    };
  }
}

describe('pollNewLinksWith (unit)', () => {
  test('first run sets the mark without emitting and costs one request', async () => {
    const service = new ModelService();
    service.insert(5, 1000);
    const result = await pollNewLinksWith(service.fetcher(), undefined, { pageSize: 3 });
    expect(result.links).toEqual([]);
    expect(result.complete).toBe(true);
    expect(result.state).toEqual({ version: 1, mark: { createdAt: new Date(T0 + 5000).toISOString(), ids: ['5'] } });
    expect(service.requests).toBe(1);
    expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
  });

  test('first run on an empty account: everything later is new', async () => {
    const service = new ModelService();
    const first = await pollNewLinksWith(service.fetcher(), undefined);
    expect(first.state).toEqual({ version: 1, mark: null });
    service.insert(2, 1);
    const second = await pollNewLinksWith(service.fetcher(), first.state);
    expect(second.links.map((l) => l.id)).toEqual(['1', '2']);
  });

  test('a quiet poll costs one request', async () => {
    const service = new ModelService();
    service.insert(30, 1000);
    const { state } = await pollNewLinksWith(service.fetcher(), undefined, { pageSize: 10 });
    service.requests = 0;
    const quiet = await pollNewLinksWith(service.fetcher(), state, { pageSize: 10 });
    expect(quiet.links).toEqual([]);
    expect(quiet.state).toEqual(state);
    expect(service.requests).toBe(1);
  });

  test('new links come oldest → newest, including ones sharing the mark timestamp', async () => {
    const service = new ModelService();
    service.insert(3, 1000);
    const { state } = await pollNewLinksWith(service.fetcher(), undefined);
    service.insert(2, 0); // same millisecond as the mark
    service.insert(2, 5);
    const result = await pollNewLinksWith(service.fetcher(), state);
    expect(result.links.map((l) => l.id)).toEqual(['4', '5', '6', '7']);
    expect(result.state.mark).toEqual({ createdAt: new Date(T0 + 3010).toISOString(), ids: ['7'] });
  });

  test('a bounded call stops, resumes at the oldest segment, then catches up from the top', async () => {
    const service = new ModelService();
    service.insert(1, 1000);
    let { state } = await pollNewLinksWith(service.fetcher(), undefined, { pageSize: 2 });
    service.insert(7, 1000); // ids 2..8
    const first = await pollNewLinksWith(service.fetcher(), state, { pageSize: 2, maxPages: 2 });
    expect(first.links).toEqual([]);
    expect(first.complete).toBe(false);
    expect(first.state.resume?.cursor).toBeDefined();
    state = first.state;
    const second = await pollNewLinksWith(service.fetcher(), state, { pageSize: 2, maxPages: 2 });
    expect(second.links.map((l) => l.id)).toEqual(['2', '3', '4']);
    const third = await pollNewLinksWith(service.fetcher(), second.state, { pageSize: 2, maxPages: 2 });
    expect(third.links.map((l) => l.id)).toEqual(['5', '6', '7', '8']);
    expect(third.complete).toBe(true);
    expect(third.state.resume).toBeUndefined();
  });

  test('a stored state that is not ours is refused', async () => {
    const service = new ModelService();
    await expect(pollNewLinksWith(service.fetcher(), { version: 1, mark: { createdAt: 'x', ids: [] } })).rejects.toMatchObject({ field: 'state' });
    await expect(pollNewLinksWith(service.fetcher(), { version: 1, mark: null, resume: { cursor: '' } } as NewLinksState)).rejects.toMatchObject({
      field: 'state',
    });
  });
});

describe('pollNewLinksWith (property, against the model)', () => {
  const mutation = fc.record({
    inserts: fc.integer({ min: 0, max: 3 }),
    advanceMs: fc.constantFrom(0, 0, 1, 7),
    deletes: fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { maxLength: 2 }),
  });

  test('never misses, never doubles, never emits old links, always oldest → newest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.array(mutation, { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ pageSize: fc.integer({ min: 1, max: 4 }), maxPages: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 12 }),
        async (initial, mutations, polls) => {
          const service = new ModelService();
          service.insert(initial, 1);
          const queue = [...mutations];
          const mutate = () => {
            const m = queue.shift();
            if (!m) return;
            service.insert(m.inserts, m.advanceMs);
            for (const d of m.deletes) service.remove(d);
          };
          let baseline: Set<string> | undefined;
          const fetcher = service.fetcher(() => {
            if (!baseline) baseline = new Set(service.links.map((l) => l.id));
            else mutate(); // links appear and vanish between and during pages
          });
          const emitted: string[] = [];
          const check = (links: Link[]) => {
            for (let i = 1; i < links.length; i++) {
              expect(Date.parse(links[i]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(links[i - 1]!.createdAt));
            }
            emitted.push(...links.map((l) => l.id));
          };

          let state: NewLinksState | undefined;
          for (const options of polls) {
            const result = await pollNewLinksWith(fetcher, state, options);
            check(result.links);
            state = JSON.parse(JSON.stringify(result.state)) as NewLinksState; // stored as JSON by the host
            mutate();
          }
          // The world goes quiet: the poller catches up within a bounded number of calls.
          while (queue.length > 0) mutate();
          let caughtUp = false;
          for (let i = 0; i < 300 && !caughtUp; i++) {
            const result = await pollNewLinksWith(fetcher, state, polls[i % polls.length]);
            check(result.links);
            state = result.state;
            caughtUp = result.complete && !result.state.resume && result.links.length === 0;
          }
          expect(caughtUp).toBe(true);

          expect(new Set(emitted).size).toBe(emitted.length); // never doubles
          for (const id of emitted) expect(baseline!.has(id)).toBe(false); // never emits what existed before
          for (const l of service.links) if (!baseline!.has(l.id)) expect(emitted).toContain(l.id); // never misses
        },
      ),
      { numRuns: 500 },
    );
  });
});
