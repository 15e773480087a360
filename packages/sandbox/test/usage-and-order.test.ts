/**
 * The counters and the ordered lists that keep every request's cost independent of the account's size: the
 * month's links (the plan quota) and clicks (GET /me) as a scan would count them, the list order and its
 * cursor after creates, deletes and links stamped out of order; the demo account's quota from the start
 * options; the seeded clicks over the last four weeks.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../src/cli';
import { SEEDED_CLICK_DAYS } from '../src/seed';
import { compareNewestFirst, emptyState, LINK_QUOTA, Store } from '../src/store';
import { startSandbox } from '../src/index';
import { api, visit } from './http-helpers';

const DAY_MS = 86_400_000;

describe('the plan quota and the usage figures', () => {
  let now = Date.parse('2026-05-20T12:00:00.000Z');
  const clock = () => now;

  test('existing links of this month count, last month and deleted ones do not; clicks likewise', async () => {
    const sandbox = await startSandbox({ seed: false, now: clock });
    try {
      const { accountId, apiKey } = sandbox.createAccount({ name: 'Small', email: 'small@example.com', plan: 'business', linkQuota: 3 });
      sandbox.seedLinks(accountId, 4, { endAt: Date.parse('2026-04-30T23:59:59.000Z') }); // last month
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await api(sandbox.baseUrl, apiKey, 'POST', '/links', { targetUrl: `https://example.org/${i}`, slug: `quota-${i}` });
        expect(answer.status).toBe(201);
        created.push(answer.json.id);
      }
      const refused = await api(sandbox.baseUrl, apiKey, 'POST', '/links', { targetUrl: 'https://example.org/4' });
      expect(refused.status).toBe(403);
      expect(sandbox.linkQuotaOf(accountId)).toEqual({ plan: 'business', linkQuota: 3, used: 3 });

      await visit(sandbox.baseUrl, '/quota-0');
      await visit(sandbox.baseUrl, '/quota-0');
      await visit(sandbox.baseUrl, '/quota-1');
      expect((await api(sandbox.baseUrl, apiKey, 'GET', '/me')).json.usage).toMatchObject({ links: 3, clicks: 3 });

      // A deleted link frees its place and takes its clicks out of the figure.
      expect((await api(sandbox.baseUrl, apiKey, 'DELETE', `/links/${created[0]}`)).status).toBe(204);
      expect((await api(sandbox.baseUrl, apiKey, 'GET', '/me')).json.usage).toMatchObject({ links: 2, clicks: 1 });
      expect((await api(sandbox.baseUrl, apiKey, 'POST', '/links', { targetUrl: 'https://example.org/5' })).status).toBe(201);

      // Next month starts at 0 links and 0 clicks.
      now = Date.parse('2026-06-01T00:00:00.000Z');
      expect((await api(sandbox.baseUrl, apiKey, 'GET', '/me')).json.usage).toMatchObject({ links: 0, clicks: 0 });
      sandbox.setLinkQuota(accountId, undefined);
      expect(sandbox.linkQuotaOf(accountId)).toEqual({ plan: 'business', linkQuota: LINK_QUOTA.business, used: 0 });
    } finally {
      await sandbox.close();
    }
  });

  test('the demo quota is set on every start: given, or the plan\'s again after a restart without it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-quota-'));
    const dataFile = join(directory, 'state.json');
    try {
      const first = await startSandbox({ dataFile, demoLinkQuota: 5 });
      const me = (await api(first.baseUrl, first.apiKey, 'GET', '/me')).json;
      expect(me.plan.linkQuota).toBe(5);
      expect(me.usage.links).toBe(3); // the three seeded links
      await first.close();
      const second = await startSandbox({ dataFile });
      expect((await api(second.baseUrl, second.apiKey, 'GET', '/me')).json.plan.linkQuota).toBe(LINK_QUOTA.business);
      await second.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('--plan-links on the command line', () => {
    expect(parseCli(['--plan-links', '20'])).toMatchObject({ demoLinkQuota: 20 });
    expect(() => parseCli(['--plan-links=-1'])).toThrow(/--plan-links must be a number of at least 0/);
    expect(() => parseCli(['--plan-links', '2.5'])).toThrow(/--plan-links must be a whole number of links/);
  });
});

test('the seeded clicks cover each of the last four weeks for every demo link', async () => {
  const sandbox = await startSandbox();
  try {
    const now = Date.now();
    for (const link of sandbox.links(sandbox.demoAccountId)) {
      const stats = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${link.id}/stats`)).json as { clicksByDay: Array<{ date: string; clicks: number }> };
      for (let week = 0; week < SEEDED_CLICK_DAYS / 7; week++) {
        const from = new Date(now - (week + 1) * 7 * DAY_MS).toISOString().slice(0, 10);
        const to = new Date(now - week * 7 * DAY_MS).toISOString().slice(0, 10);
        const inWeek = stats.clicksByDay.filter((day) => day.date > from && day.date <= to).reduce((sum, day) => sum + day.clicks, 0);
        expect({ link: link.slug, week, clicks: inWeek > 0 }).toEqual({ link: link.slug, week, clicks: true });
      }
      expect(stats.clicksByDay.every((day) => Date.parse(day.date) > now - SEEDED_CLICK_DAYS * DAY_MS - DAY_MS)).toBe(true);
    }
  } finally {
    await sandbox.close();
  }
});

test('the ordered list and its counters agree with a plain model after creates, deletes and links stamped out of order', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('create' as const), offsetMs: fc.integer({ min: -5, max: 5 }) }),
          fc.record({ kind: fc.constant('seed' as const), count: fc.integer({ min: 1, max: 4 }), endOffsetMs: fc.integer({ min: -50, max: 50 }) }),
          fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
          fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 3 }) }),
        ),
        { maxLength: 60 },
      ),
      fc.integer({ min: 1, max: 7 }),
      (steps, pageSize) => {
        let now = Date.parse('2026-05-31T23:59:59.990Z'); // the month turns during some runs
        const store = new Store(emptyState(), () => now, () => undefined);
        const { account } = store.createAccount({ name: 'Model', email: 'model@example.com', plan: 'enterprise' });
        const model: Array<{ id: string; createdAt: string }> = [];
        for (const step of steps) {
          if (step.kind === 'create') {
            store.createdAtOffsetMs = step.offsetMs;
            model.push(store.createLink(account.id, { targetUrl: 'https://example.org/' }));
          } else if (step.kind === 'seed') {
            model.push(...store.seedLinks(account.id, step.count, { endAt: now + step.endOffsetMs, spacingMs: 1 }));
          } else if (step.kind === 'delete' && model.length > 0) {
            const [gone] = model.splice(step.pick % model.length, 1);
            store.deleteLink(account.id, gone!.id);
          } else if (step.kind === 'tick') now += step.ms;
        }
        const expected = [...model].sort(compareNewestFirst).map((link) => link.id);
        // Paged newest first by cursor, as GET /links does.
        const listed: string[] = [];
        let after: { createdAt: string; id: string } | undefined;
        for (;;) {
          const { page, hasMore } = store.listLinks(account.id, pageSize, after);
          listed.push(...page.map((link) => link.id));
          if (!hasMore) break;
          after = page[page.length - 1];
        }
        expect(listed).toEqual(expected);
        const month = new Date(now).toISOString().slice(0, 7);
        expect(store.linkQuotaOf(account.id).used).toBe(model.filter((link) => link.createdAt.startsWith(month)).length);
      },
    ),
    { numRuns: 300, seed: 36 },
  );
});
