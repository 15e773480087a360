/**
 * client.pollLinkClicks against the sandbox with real clicks (requests to its redirect endpoint): the
 * first poll takes the counts as they are, milestones reached between polls fire once each (several at
 * once too), "new clicks" gives clicksBefore/clicks/newClicks, a link created and clicked between polls
 * counts from zero, deleted links are dropped, a switched account starts over, a restarted trigger (state
 * through JSON) repeats nothing, and the cost is one request per 100 links in scope.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient, InputError, type ShortLinkClient } from '@shortlink/core';
import { linkIdentity, type LinkClicksState } from '@shortlink/core/host';
import { MAX_WATCHED_LINKS } from '../../src/polls/link-clicks/state';
import { parseMilestones } from '../../src/polls/link-clicks/options';
import type { LinkClickEvent, PollLinkClicksCallOptions } from '../../src/polls/link-clicks/poll';
import { click } from '../../../../test/support/clicks';

let sandbox: Sandbox;
let accounts = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

/** A fresh business account with a client; `sent` counts the API requests the sandbox got (tests run one at a time). */
function account(): { id: string; key: string; client: ShortLinkClient; sent: () => number } {
  const { accountId, apiKey } = sandbox.createAccount({ name: `clicks ${++accounts}`, email: `clicks${accounts}@example.org`, plan: 'business' });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  return { id: accountId, key: apiKey, client, sent: () => sandbox.requests.filter((r) => r.path.startsWith('/api/v1/')).length };
}

/** Polls like a host: the state goes through JSON between polls (a restart keeps only that). */
function trigger(client: ShortLinkClient, options: PollLinkClicksCallOptions) {
  let state: LinkClicksState | undefined;
  return {
    get state() {
      return state;
    },
    set state(value) {
      state = value;
    },
    async poll(): Promise<LinkClickEvent[]> {
      const result = await client.pollLinkClicks(state, options);
      state = JSON.parse(JSON.stringify(result.state)) as LinkClicksState;
      return result.events;
    },
    async result() {
      const result = await client.pollLinkClicks(state, options);
      state = JSON.parse(JSON.stringify(result.state)) as LinkClicksState;
      return result;
    },
  };
}

const brief = (events: LinkClickEvent[]) => events.map((e) => ({ id: e.id, before: e.clicksBefore, clicks: e.clicks, newClicks: e.newClicks, milestone: e.milestone }));

test('milestones reached between polls fire once each, several at once too; nothing on quiet polls', async () => {
  const a = account();
  const [one, two] = sandbox.seedLinks(a.id, 2, { label: 'ms' });
  await click(one!.shortUrl, 1);
  const t = trigger(a.client, { mode: 'milestones', milestones: [2, 5, 10], scope: { createdWithinDays: 30 } });
  expect(await t.poll()).toEqual([]); // first poll: the counts as they are

  await click(one!.shortUrl, 1); // 2: milestone 2
  await click(two!.shortUrl, 6); // 6: milestones 2 and 5 at once
  const events = await t.poll();
  expect(brief(events).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
    [
      { id: `${linkIdentity(one!)}:m2`, before: 1, clicks: 2, newClicks: 1, milestone: 2 },
      { id: `${linkIdentity(two!)}:m2`, before: 0, clicks: 6, newClicks: 6, milestone: 2 },
      { id: `${linkIdentity(two!)}:m5`, before: 0, clicks: 6, newClicks: 6, milestone: 5 },
    ].sort((x, y) => x.id.localeCompare(y.id)),
  );
  expect(events[0]!.link).toEqual(expect.objectContaining({ slug: expect.any(String), targetUrl: expect.any(String), createdAt: expect.any(String), blocked: false }));
  expect(await t.poll()).toEqual([]);

  await click(two!.shortUrl, 3); // 9: no milestone
  expect(await t.poll()).toEqual([]);
  await click(two!.shortUrl, 1); // 10
  expect(brief(await t.poll())).toEqual([{ id: `${linkIdentity(two!)}:m10`, before: 9, clicks: 10, newClicks: 1, milestone: 10 }]);
});

test('new clicks: one event per link whose count grew, with clicksBefore, clicks and newClicks', async () => {
  const a = account();
  const [one, two, three] = sandbox.seedLinks(a.id, 3, { label: 'nc' });
  await click(three!.shortUrl, 4);
  const t = trigger(a.client, { mode: 'newClicks', scope: { createdWithinDays: 30 } });
  expect(await t.poll()).toEqual([]);
  await click(one!.shortUrl, 2);
  await click(three!.shortUrl, 3);
  const events = brief(await t.poll()).sort((x, y) => x.id.localeCompare(y.id));
  expect(events).toEqual(
    [
      { id: `${linkIdentity(one!)}:c2`, before: 0, clicks: 2, newClicks: 2, milestone: undefined },
      { id: `${linkIdentity(three!)}:c7`, before: 4, clicks: 7, newClicks: 3, milestone: undefined },
    ].sort((x, y) => x.id.localeCompare(y.id)),
  );
  expect(await t.poll()).toEqual([]);
  void two;
});

test('a link created and clicked between two polls counts from zero; links older than the scope are not read', async () => {
  const a = account();
  // 150 links from 40 days ago: outside "the last 30 days", so the walk never reaches past the first of them.
  sandbox.seedLinks(a.id, 150, { label: 'old', endAt: Date.now() - 40 * 86_400_000 });
  const t = trigger(a.client, { mode: 'milestones', milestones: [3], scope: { createdWithinDays: 30 } });
  const first = await t.result();
  expect(first).toMatchObject({ events: [], complete: true, requests: 1, linksInScope: 0 });

  const fresh = await a.client.createLink({ targetUrl: 'https://example.org/fresh' });
  await click(fresh.shortUrl, 4);
  const second = await t.result();
  expect(brief(second.events)).toEqual([{ id: `${linkIdentity(fresh)}:m3`, before: 0, clicks: 4, newClicks: 4, milestone: 3 }]);
  expect(second).toMatchObject({ requests: 1, linksInScope: 1 });
});

test('deleted links are dropped from the state without an event; a deleted chosen link is reported', async () => {
  const a = account();
  const links = sandbox.seedLinks(a.id, 3, { label: 'del' });
  const t = trigger(a.client, { mode: 'newClicks', scope: { createdWithinDays: 30 } });
  await t.poll();
  expect(Object.keys(t.state!.links).sort()).toEqual(links.map((l) => linkIdentity(l)).sort());
  await click(links[0]!.shortUrl, 1);
  await a.client.deleteLink(links[0]!.id);
  await click(links[1]!.shortUrl, 2);
  expect(brief(await t.poll()).map((e) => e.id)).toEqual([`${linkIdentity(links[1]!)}:c2`]);
  expect(Object.keys(t.state!.links).sort()).toEqual([linkIdentity(links[1]!), linkIdentity(links[2]!)].sort());

  const chosen = trigger(a.client, { mode: 'milestones', milestones: [1], scope: { linkIds: [links[1]!.id, links[2]!.id] } });
  await chosen.poll();
  await a.client.deleteLink(links[2]!.id);
  await click(links[1]!.shortUrl, 1);
  const result = await chosen.result();
  expect(brief(result.events)).toEqual([]); // link 1 was at 2 already: milestone 1 lies behind it
  expect(result.notices.join(' ')).toContain(`The chosen link ${links[2]!.id} no longer exists`);
  expect(Object.keys(chosen.state!.links)).toEqual([linkIdentity(links[1]!)]);
});

test('chosen links: one request each, events for those links only', async () => {
  const a = account();
  const links = sandbox.seedLinks(a.id, 5, { label: 'pick' });
  const t = trigger(a.client, { mode: 'milestones', milestones: [2], scope: { linkIds: [links[0]!.id, links[3]!.id] } });
  await t.poll();
  await click(links[0]!.shortUrl, 2);
  await click(links[1]!.shortUrl, 2);
  const result = await t.result();
  expect(brief(result.events).map((e) => e.id)).toEqual([`${linkIdentity(links[0]!)}:m2`]);
  expect(result.requests).toBe(2);
});

test('a restarted trigger (state through JSON) fires nothing twice; a switched account starts over', async () => {
  const a = account();
  const b = account();
  const [la] = sandbox.seedLinks(a.id, 1, { label: 'sw-a' });
  const [lb] = sandbox.seedLinks(b.id, 1, { label: 'sw-b' });
  const options: PollLinkClicksCallOptions = { mode: 'milestones', milestones: [1, 2], scope: { createdWithinDays: 30 } };
  const t = trigger(a.client, options);
  await t.poll();
  await click(la!.shortUrl, 1);
  expect(brief(await t.poll()).map((e) => e.id)).toEqual([`${linkIdentity(la!)}:m1`]);

  // Restart: a new client, only the saved JSON.
  const saved = JSON.stringify(t.state);
  const restarted = trigger(createClient({ baseUrl: sandbox.baseUrl, apiKey: a.key }), options);
  restarted.state = JSON.parse(saved) as LinkClicksState;
  expect(await restarted.poll()).toEqual([]);
  await click(la!.shortUrl, 1);
  expect(brief(await restarted.poll()).map((e) => e.id)).toEqual([`${linkIdentity(la!)}:m2`]);

  // The credential now names account B, whose link has clicks: taken as they are, not fired.
  await click(lb!.shortUrl, 2);
  const switched = trigger(b.client, options);
  switched.state = restarted.state;
  const result = await switched.result();
  expect(result.events).toEqual([]);
  expect(result.notices.join(' ')).toContain('belong to another account');
  expect(Object.keys(switched.state!.links)).toEqual([linkIdentity(lb!)]);
  expect(JSON.stringify(switched.state)).not.toContain(b.key);
});

test('a link recreated under a reused id fires its own milestones (counts keyed by id and createdAt)', async () => {
  const a = account();
  const old = await a.client.createLink({ targetUrl: 'https://example.org/reused/old' });
  await click(old.shortUrl, 3);
  const t = trigger(a.client, { mode: 'milestones', milestones: [1, 3], scope: { createdWithinDays: 30 } });
  expect(await t.poll()).toEqual([]); // the old link's 3 clicks are taken as they are
  await a.client.deleteLink(old.id);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a later createdAt
  sandbox.reuseLinkId(old.id);
  const recreated = await a.client.createLink({ targetUrl: 'https://example.org/reused/new' });
  expect(recreated.id).toBe(old.id);
  await click(recreated.shortUrl, 3);
  const events = await t.poll();
  // Keyed by id alone, the new link would have inherited the old one's count (3) and fired nothing.
  expect(brief(events)).toEqual([
    { id: `${linkIdentity(recreated)}:m1`, before: 0, clicks: 3, newClicks: 3, milestone: 1 },
    { id: `${linkIdentity(recreated)}:m3`, before: 0, clicks: 3, newClicks: 3, milestone: 3 },
  ]);
  expect(linkIdentity(recreated)).not.toBe(linkIdentity(old));
  expect(Object.keys(t.state!.links)).toEqual([linkIdentity(recreated)]);
});

test('a state written before counts were keyed by identity is taken over: nothing fires twice', async () => {
  const a = account();
  const [one] = sandbox.seedLinks(a.id, 1, { label: 'legacy' });
  await click(one!.shortUrl, 2);
  const t = trigger(a.client, { mode: 'milestones', milestones: [1, 2, 3], scope: { createdWithinDays: 30 } });
  await t.poll();
  // The same state as the earlier version wrote it: the count under the bare id.
  const links = t.state!.links;
  t.state = { ...t.state!, links: { [one!.id]: links[linkIdentity(one!)]! } };
  await click(one!.shortUrl, 1);
  expect(brief(await t.poll())).toEqual([{ id: `${linkIdentity(one!)}:m3`, before: 2, clicks: 3, newClicks: 1, milestone: 3 }]);
  expect(Object.keys(t.state!.links)).toEqual([linkIdentity(one!)]);
});

test('more events than a poll may hand out follow in the next polls, none lost or repeated', async () => {
  const a = account();
  const links = sandbox.seedLinks(a.id, 6, { label: 'cap' });
  const t = trigger(a.client, { mode: 'milestones', milestones: [1, 2, 3], scope: { createdWithinDays: 30 }, maxEvents: 4 });
  await t.poll();
  for (const l of links) await click(l.shortUrl, 3);
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) {
    const events = await t.poll();
    expect(events.length).toBeLessThanOrEqual(4);
    seen.push(...events.map((e) => e.id));
  }
  expect(seen.sort()).toEqual(links.flatMap((l) => [1, 2, 3].map((m) => `${linkIdentity(l)}:m${m}`)).sort());
});

test('a scope larger than one poll is walked over several polls; cost is one request per 100 links', async () => {
  const a = account();
  const links = sandbox.seedLinks(a.id, 250, { label: 'wide' });
  const t = trigger(a.client, { mode: 'newClicks', scope: { createdWithinDays: 30 }, maxRequests: 2 });
  const r1 = await t.result();
  expect(r1).toMatchObject({ complete: false, requests: 2, linksInScope: 200 });
  const r2 = await t.result();
  expect(r2).toMatchObject({ complete: true, requests: 1, linksInScope: 250 });
  await click(links[0]!.shortUrl, 1); // the oldest: on the third page
  await click(links[249]!.shortUrl, 1);
  const events: LinkClickEvent[] = [];
  for (let i = 0; i < 2; i++) events.push(...(await t.poll()));
  expect(events.map((e) => e.id).sort()).toEqual([`${linkIdentity(links[0]!)}:c1`, `${linkIdentity(links[249]!)}:c1`].sort());
});

test(`at most ${MAX_WATCHED_LINKS} links are watched, and the poll says so`, async () => {
  const a = account();
  sandbox.seedLinks(a.id, MAX_WATCHED_LINKS + 50, { label: 'many' });
  const before = a.sent();
  const result = await a.client.pollLinkClicks(undefined, { mode: 'newClicks', scope: { createdWithinDays: 30 } });
  expect(result).toMatchObject({ complete: true, requests: 100, linksInScope: MAX_WATCHED_LINKS });
  expect(Object.keys(result.state.links)).toHaveLength(MAX_WATCHED_LINKS);
  expect(result.notices.join(' ')).toContain(`only the newest ${MAX_WATCHED_LINKS.toLocaleString('en-US')} are watched`);
  expect(a.sent() - before).toBe(101); // GET /me once, then 100 pages
});

test('bad options are refused by name before any request', async () => {
  const a = account();
  const before = a.sent();
  await expect(a.client.pollLinkClicks(undefined, { mode: 'milestones', milestones: [], scope: { createdWithinDays: 30 } })).rejects.toMatchObject({ field: 'milestones' });
  await expect(a.client.pollLinkClicks(undefined, { mode: 'milestones', milestones: [100], scope: { createdWithinDays: 0 } })).rejects.toMatchObject({ field: 'createdWithinDays' });
  await expect(a.client.pollLinkClicks(undefined, { mode: 'other' as never, scope: { linkIds: ['1'] } })).rejects.toMatchObject({ field: 'mode' });
  await expect(a.client.pollLinkClicks(undefined, { mode: 'newClicks', scope: { linkIds: [] } })).rejects.toMatchObject({ field: 'linkIds' });
  expect(a.sent()).toBe(before);
  expect(parseMilestones('1000, 100 ;50')).toEqual([50, 100, 1000]);
  expect(() => parseMilestones('1,000', 'Custom Milestones')).toThrow(InputError);
  expect(() => parseMilestones('1,000', 'Custom Milestones')).toThrow(/Custom Milestones: "000" is not a whole number above 0.*without thousands separators/);
});
