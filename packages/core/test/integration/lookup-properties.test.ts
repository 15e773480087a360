/**
 * Property: for random accounts (same targets written in different ways, paused and blocked links, filler
 * links seeded on top so that the targets sit among the oldest, over several pages) and random lookups,
 * find and find-or-create never answer "none" for a link that exists and never create a second one.
 * The oracle does not use the client's normalisation: every target belongs to a numbered page, and the
 * ways of writing it are generated from that number.
 */
import fc from 'fast-check';
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Ways of writing the target of page `k`: one URL for a person, as many spellings as a sheet may hold. */
const SPELLINGS = [
  (k: number) => `https://example.org/p/${k}?utm_source=s${k}&utm_medium=email`,
  (k: number) => `https://EXAMPLE.org/p/${k}?utm_medium=email&utm_source=s${k}`,
  (k: number) => `HTTPS://example.org:443/p/${k}?utm_source=s${k}&utm_medium=email`,
  (k: number) => `https://example.org/%70/${k}?utm_medium=email&utm_source=s${k}`,
];
const pageOf = (url: string): number | undefined => {
  const match = /\/(?:p|%70)\/(\d+)\?/i.exec(url);
  return match ? Number(match[1]) : undefined;
};

const accountArb = fc.record({
  existing: fc.array(fc.record({ page: fc.integer({ min: 0, max: 7 }), spelling: fc.integer({ min: 0, max: 3 }), state: fc.constantFrom('active', 'active', 'paused', 'blocked') }), { maxLength: 8 }),
  filler: fc.integer({ min: 0, max: 260 }),
  lookups: fc.array(fc.record({ kind: fc.constantFrom('find', 'findOrCreate'), page: fc.integer({ min: 0, max: 9 }), spelling: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 12 }),
});

let runNo = 0;

test('find and find-or-create never answer "none" for an existing link and never create a second one', async () => {
  await fc.assert(
    fc.asyncProperty(accountArb, async ({ existing, filler, lookups }) => {
      runNo++;
      const made = sandbox.createAccount({ name: `prop${runNo}`, email: `prop${runNo}@example.org`, plan: 'business' });
      const setup = createClient({ baseUrl: sandbox.baseUrl, apiKey: made.apiKey });
      for (const link of existing) {
        const created = await setup.createLink({ targetUrl: SPELLINGS[link.spelling]!(link.page) });
        if (link.state === 'paused') await setup.updateLink(created.id, { active: false });
        if (link.state === 'blocked') sandbox.setBlocked(created.id, true);
      }
      sandbox.seedLinks(made.accountId, filler, { label: `fill${runNo}` });

      const run = createClient({ baseUrl: sandbox.baseUrl, apiKey: made.apiKey });
      const linksOf = (page: number) => sandbox.links(made.accountId).filter((l) => pageOf(l.targetUrl) === page);
      const redirecting = (page: number) => linksOf(page).filter((l) => l.active && !l.blocked);
      for (const lookup of lookups) {
        const url = SPELLINGS[lookup.spelling]!(lookup.page);
        if (lookup.kind === 'find') {
          const found = await run.findLinks({ targetUrl: url });
          expect(found.map((l) => l.id).sort()).toEqual(linksOf(lookup.page).map((l) => l.id).sort());
        } else {
          const before = redirecting(lookup.page);
          const result = await run.findOrCreateLink({ targetUrl: url });
          expect(result.created).toBe(before.length === 0);
          if (!result.created) expect(before.map((l) => l.id)).toContain(result.link.id);
          expect(redirecting(lookup.page).length).toBe(Math.max(1, before.length));
        }
      }
    }),
    { numRuns: Number(process.env.LOOKUP_PROPERTY_RUNS ?? 40) },
  );
});
