/**
 * The create rule (docs/guarantees.md): after a lost answer the account is read twice, a settle delay apart.
 * The request's own link is the answer only when it carries the request's marker (a slug the client chose,
 * the default); nothing in the window allows a resend only when a second link is impossible (the marker or
 * the user's slug make a late first attempt a 409) or the service showed it was done with the request;
 * anything else is "unknown", never a second link and never another caller's link — whatever the clocks say.
 */
import { ConflictError, ServerError, UnknownOutcomeError, createClient } from '../src/portable';
import { BASE_URL, created, fakeClock, link } from './helpers';
import { Step, ok, scriptedTransport, status } from './scripted-transport';

const START = Date.parse('2026-03-01T09:30:00.000Z');
const input = { targetUrl: 'https://example.org/spring', title: 'Spring' };
const DATE = { date: new Date(START).toUTCString() };
const page = (links: unknown[], nextCursor: string | null = null, headers: Record<string, string> = {}): Step => ok({ data: links, nextCursor }, headers);
const looks = (links: unknown[]): Step[] => [page(links, null, DATE), page(links)];
const at = (ms: number) => new Date(START + ms).toISOString();
/** A link made well before the request: the walk stops there, newest first. */
const older = link({ id: '1', targetUrl: 'https://example.org/other', title: 'Other', createdAt: '2026-03-01T08:00:00.000Z' });
/** random() gives 0 for the first marker, then 1/62, …: markers AAAAAAAAAA, BBBBBBBBBB, … */
const MARKER = 'AAAAAAAAAA';
const mine = link({ id: '9', slug: MARKER, targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
const theirs = link({ id: '12', slug: 'x12', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
const createdAnswer: Step = { status: 201, headers: {}, body: created({ id: '77', targetUrl: input.targetUrl, title: 'Spring' }) };
const conflict = status(409, {}, { title: 'Conflict', status: 409, detail: 'slug taken' });

function setup(steps: Step[], options: { markCreates?: boolean } = {}) {
  const clock = fakeClock(START);
  const transport = scriptedTransport(steps);
  let markers = 0;
  // One marker per create: every character of the n-th marker is the n-th letter.
  const random = () => (Math.floor(markers++ / 10) % 62) / 62;
  const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random, ...options });
  const calls = () => transport.requests.map((r) => `${r.method} ${r.path}`);
  return { client, clock, calls, transport };
}

describe('with the marker (the default): the link carrying it is the answer', () => {
  test.each([
    ['a 502', status(502, DATE)],
    ['a reset', { fail: 'ECONNRESET' } as Step],
    ['a timeout', { fail: 'ETIMEDOUT' } as Step],
    ['a 201 with a cut-off body', { status: 201, headers: { 'content-type': 'application/json', ...DATE }, body: '{"id":"9","sl' } as Step],
  ])('after %s the marked link is the answer after two looks, and nothing is sent again', async (_name, lost) => {
    const { client, clock, calls, transport } = setup([lost, ...looks([mine, older])]);
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(transport.requests[0]!.body).toEqual({ ...input, slug: MARKER });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links']);
    expect(clock.sleeps).toContain(1500);
  });

  test('another caller\'s link with the same target in the same second is never taken: only the marker counts', async () => {
    const { client, calls } = setup([{ fail: 'ECONNRESET' }, ...looks([theirs, mine, older])]);
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links']);
  });

  test('a list that lags the write: the first look shows nothing, the second the marked link', async () => {
    const { client, calls } = setup([status(502, DATE), page([older], null, DATE), page([mine, older])]);
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links']);
  });

  test('an oldest-first list is read to its end; the second look starts where the window began', async () => {
    const old = (id: string, minutes: number) => link({ id, targetUrl: `https://example.org/o${id}`, createdAt: at(-minutes * 60_000) });
    const steps: Step[] = [status(502, DATE), page([old('1', 30), old('2', 20)], 'c1', DATE), page([old('3', 10), mine], null), page([old('3', 10), mine], null)];
    const { client, calls, transport } = setup(steps);
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'GET /links']);
    expect(transport.requests[3]!.query?.cursor).toBe('c1');
  });

  test('nothing stored after a timeout: sent again with the same marker; the first attempt landing late makes that a 409, and its link is the answer', async () => {
    const late = link({ ...mine, createdAt: at(1_700) });
    const { client, calls, transport } = setup([{ fail: 'ETIMEDOUT' }, ...looks([older]), conflict, ...looks([late, older])]);
    await expect(client.createLink(input)).resolves.toEqual(late);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(2);
    expect(transport.requests[3]!.body).toEqual({ ...input, slug: MARKER });
  });

  test('a first 409 on the marker is a clash of random slugs: nothing of this request was stored, so it goes again with a new marker', async () => {
    const { client, transport } = setup([conflict, createdAnswer]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(transport.requests.map((r) => (r.body as { slug: string }).slug)).toEqual([MARKER, 'BBBBBBBBBB']);
  });

  test('a plan that refuses chosen slugs: the create goes again without the marker, and later creates of the process send none', async () => {
    const planRefusal = status(403, {}, { type: 'https://sho.rt/docs/errors#plan-required', title: 'Forbidden', status: 403, detail: 'Custom slugs need a higher plan.' });
    const clock = fakeClock(START);
    const transport = scriptedTransport([planRefusal, createdAnswer, createdAnswer]);
    const options = { baseUrl: BASE_URL, apiKey: 'sk_test_marker_refusal_0123456789', transport, sleep: clock.sleep, now: clock.now };
    await createClient(options).createLink(input);
    await createClient(options).createLink(input);
    expect(transport.requests.map((r) => (r.body as { slug?: string }).slug)).toEqual([expect.stringMatching(/^[A-Za-z0-9]{10}$/), undefined, undefined]);
  });

  test('markCreates leaves a slug the user chose alone', async () => {
    const { client, transport } = setup([createdAnswer]);
    await client.createLink({ ...input, slug: 'spring' });
    expect(transport.requests[0]!.body).toEqual({ ...input, slug: 'spring' });
  });

  test('a link this client already returned is never claimed a second time', async () => {
    const first = link({ id: '10', slug: MARKER, targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const second = link({ id: '11', slug: 'BBBBBBBBBB', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const { client, calls } = setup([{ status: 201, headers: {}, body: created({ ...first }) }, status(502, DATE), ...looks([second, first, older])]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '10' });
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '11' });
    expect(calls()).toEqual(['POST /links', 'POST /links', 'GET /links', 'GET /links']);
  });
});

describe('without the marker, only evidence that rules out a second link allows a resend', () => {
  const unmarked = { markCreates: false };

  test('after a 503 the account shows no new link, twice: the service was done with the request, so it is sent once more', async () => {
    const { client, clock, calls } = setup([status(503), ...looks([older]), createdAnswer], unmarked);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
    expect(clock.sleeps).toContain(1500);
  });

  test.each([
    ['a timeout', { fail: 'ETIMEDOUT' } as Step],
    ['a reset', { fail: 'ECONNRESET' } as Step],
    ['a gateway\'s 504', status(504)],
  ])('after %s with nothing listed, the request may still land: "unknown", not sent again', async (_name, lost) => {
    const { client, calls } = setup([lost, ...looks([older])], unmarked);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.message).toMatch(/the list shows no such link yet, but the request got no answer and may still be carried out, so it was not sent again/);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('a same-target link in the window is never taken on the word of a clock: without a marker it may be another caller\'s', async () => {
    const { client, calls } = setup([status(502, DATE), ...looks([theirs, older])], unmarked);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.message).toBe(
      'Failed (502 Bad Gateway). The outcome is unknown: a link was asked for with Target URL https://example.org/spring, Title "Spring". ' +
        'The link may have been created, and a link with this target URL (id 12) appeared, and without a marker it cannot be told from one another step or workflow made at the same moment. ' +
        'Look it up by its target URL (Find) before running this item again.',
    );
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('a link with the same target made before the request, below a newer one, is outside the window: nothing stored, sent again', async () => {
    const before = link({ id: '3', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(-120_000) });
    const newer = link({ id: '4', targetUrl: 'https://example.org/unrelated', createdAt: at(-500) });
    const { client, calls } = setup([status(502, DATE), ...looks([newer, before, older]), createdAnswer], unmarked);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
  });

  test('failing every time, it ends with the failure and says that nothing was created', async () => {
    const steps: Step[] = [];
    for (let attempt = 0; attempt < 4; attempt++) steps.push(status(503), ...looks([older]));
    const { client, calls } = setup(steps, unmarked);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toMatch(/Nothing was created \(checked in the account\), so it is safe to try again\./);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(4);
  });

  test('with the user\'s slug a resend is safe (a late first attempt makes it a 409); a link holding that slug for another target is not this one', async () => {
    const other = link({ id: '5', slug: 'spring', targetUrl: 'https://example.org/other', createdAt: at(0) });
    const { client, calls } = setup([{ fail: 'ETIMEDOUT' }, ...looks([other, older]), createdAnswer], unmarked);
    await expect(client.createLink({ ...input, slug: 'spring' })).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
  });

  test('a first 409 on the user\'s slug is the user\'s conflict', async () => {
    const { client } = setup([conflict], unmarked);
    await expect(client.createLink({ ...input, slug: 'spring' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('when the evidence does not settle it, the answer is "unknown" and says how to check', () => {
  const unknown = async (steps: Step[], create: { targetUrl: string; title: string; slug?: string } = input, options: { markCreates?: boolean } = {}) => {
    const { client, calls } = setup(steps, options);
    const error = (await client.createLink(create).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.kind).toBe('outcome_unknown');
    return { error, calls: calls() };
  };

  test('the lookup itself fails, three rounds', async () => {
    const { error, calls } = await unknown([status(502, DATE), ...Array.from({ length: 12 }, () => status(500))]);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(
      /^Failed \(502 Bad Gateway\)\. The outcome is unknown: a link was asked for with Target URL https:\/\/example\.org\/spring, Slug "AAAAAAAAAA", Title "Spring"\. The link may have been created, and looking for it failed \(Failed \(500 Internal Server Error\)\)\. Look it up by its target URL \(Find\) before running this item again\.$/,
    );
    expect(calls).toEqual(['POST /links', ...Array.from({ length: 12 }, () => 'GET /links')]);
  });

  test('a 2xx said it was created but the list never shows the marked link: looked for five times, then "unknown"', async () => {
    const fiveLooks = Array.from({ length: 5 }, () => looks([older])).flat();
    const { error, calls } = await unknown([{ status: 201, headers: {}, body: '' }, ...fiveLooks]);
    expect(error.message).toMatch(/the service said it was created, but it is not in the list of links yet/);
    expect(calls).toEqual(['POST /links', ...Array.from({ length: 10 }, () => 'GET /links')]);
  });

  test('a 2xx with an unreadable body and a list that lags by seconds: the marked link is the answer once the list shows it', async () => {
    const { client, calls } = setup([{ status: 201, headers: {}, body: '' }, ...looks([older]), ...looks([older]), ...looks([mine, older])]);
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('without the marker, a 2xx whose link is not listed after two looks is "unknown" at once', async () => {
    const { error, calls } = await unknown([{ status: 201, headers: {}, body: '' }, ...looks([older])], input, { markCreates: false });
    expect(error.message).toMatch(/the service said it was created, but it is not in the list of links yet/);
    expect(calls).toEqual(['POST /links', 'GET /links', 'GET /links']);
  });

  test('more links were created meanwhile than a look reads', async () => {
    const busy = (n: number) => Array.from({ length: 100 }, (_, i) => link({ id: `b${n}-${i}`, targetUrl: `https://example.org/busy/${n}/${i}`, createdAt: at(0) }));
    const pages = Array.from({ length: 150 }, (_, n) => page(busy(n), `c${n + 1}`));
    const { error, calls } = await unknown([status(502, DATE), ...pages]);
    expect(error.message).toMatch(/too many links were created meanwhile to check them all/);
    expect(calls.filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('a resend\'s 409 whose slug holder does not show: the first attempt may have made it', async () => {
    const { error, calls } = await unknown([status(503), ...looks([older]), conflict, ...looks([older])], { ...input, slug: 'spring' });
    expect(error.message).toMatch(/its slug is taken now \(the list does not show the link holding it yet, so the first attempt may have made it\)/);
    expect(calls.filter((call) => call === 'POST /links')).toHaveLength(2);
  });

  test('the user\'s slug, a lost answer and the holder with this target: a plain Create cannot tell whose it is', async () => {
    const holder = link({ id: '9', slug: 'spring', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const { error } = await unknown([status(502, DATE), ...looks([holder, older])], { ...input, slug: 'spring' });
    expect(error.message).toMatch(/without a marker it cannot be told from one another step or workflow made at the same moment/);
  });
});
