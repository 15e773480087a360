/**
 * The create rule (docs/guarantees.md): after a lost answer the account is read twice, a settle delay apart;
 * the request's own link is the answer only when it is the sole candidate and was stamped between the send
 * and the failure on the service's clock; nothing in the window means the create may be sent again; anything
 * else is "unknown", never a second link and never another caller's link.
 */
import { ConflictError, ServerError, UnknownOutcomeError, createClient } from '../src/portable';
import { BASE_URL, created, fakeClock, link } from './helpers';
import { Step, ok, scriptedTransport, status } from './scripted-transport';

const START = Date.parse('2026-03-01T09:30:00.000Z');
const input = { targetUrl: 'https://example.org/spring', title: 'Spring' };
/** The service's Date header at the clock's start (the tests' requests all leave then, or 1.5 s later). */
const DATE = { date: new Date(START).toUTCString() };
const page = (links: unknown[], nextCursor: string | null = null, headers: Record<string, string> = {}): Step => ok({ data: links, nextCursor }, headers);
/** The first look carries the Date header; the second (1.5 s later on the clock) none, so that one reading stands. */
const looks = (links: unknown[], atMs = 0): Step[] => [page(links, null, { date: new Date(START + atMs).toUTCString() }), page(links)];
const at = (ms: number) => new Date(START + ms).toISOString();
/** A link made well before the request: the walk stops there, newest first. */
const older = link({ id: '1', targetUrl: 'https://example.org/other', title: 'Other', createdAt: '2026-03-01T08:00:00.000Z' });
const stored = link({ id: '9', slug: 'x9', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
const createdAnswer: Step = { status: 201, headers: {}, body: created({ id: '77', targetUrl: input.targetUrl, title: 'Spring' }) };

function setup(steps: Step[], options: { markCreates?: boolean } = {}) {
  const clock = fakeClock(START);
  const transport = scriptedTransport(steps);
  const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random: () => 0, ...options });
  const calls = () => transport.requests.map((r) => `${r.method} ${r.path}`);
  return { client, clock, calls, transport };
}

describe('the request stored the link, its answer was lost', () => {
  test.each([
    ['a 502', status(502, DATE)],
    ['a reset', { fail: 'ECONNRESET' } as Step],
    ['a timeout', { fail: 'ETIMEDOUT' } as Step],
    ['a 201 with a cut-off body', { status: 201, headers: { 'content-type': 'application/json', ...DATE }, body: '{"id":"9","sl' } as Step],
  ])('after %s the stored link is the answer after two looks, and nothing is sent again', async (_name, lost) => {
    const { client, clock, calls } = setup([lost, ...looks([stored, older])]);
    await expect(client.createLink(input)).resolves.toEqual(stored);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links']);
    expect(clock.sleeps).toContain(1500);
  });

  test('a list that lags the write: the first look shows nothing, the second the link, which is the answer', async () => {
    const { client, calls } = setup([status(502, DATE), page([older], null, DATE), page([stored, older])]);
    await expect(client.createLink(input)).resolves.toEqual(stored);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links']);
  });

  test('an oldest-first list is read to its end; the second look starts where the window began', async () => {
    const old = (id: string, minutes: number) => link({ id, targetUrl: `https://example.org/o${id}`, createdAt: at(-minutes * 60_000) });
    const steps: Step[] = [
      status(502, DATE),
      page([old('1', 30), old('2', 20)], 'c1', DATE),
      page([old('3', 10), stored], null),
      page([old('3', 10), stored], null),
    ];
    const { client, calls, transport } = setup(steps);
    await expect(client.createLink(input)).resolves.toEqual(stored);
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'GET /links']);
    expect(transport.requests[3]!.query?.cursor).toBe('c1');
  });

  test('with a slug, a link holding that slug for another target is not taken for its own', async () => {
    const other = link({ id: '5', slug: 'spring', targetUrl: 'https://example.org/other', createdAt: at(0) });
    const { client, calls } = setup([status(500, DATE), ...looks([other, older]), createdAnswer]);
    await expect(client.createLink({ ...input, slug: 'spring' })).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
  });

  test('a link this client already returned is never claimed a second time', async () => {
    const first = link({ id: '10', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const { client, calls } = setup([
      { status: 201, headers: {}, body: created({ id: '10', targetUrl: input.targetUrl, title: 'Spring' }) },
      status(502, DATE),
      ...looks([first, older]),
      createdAnswer,
    ]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '10' });
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'POST /links', 'GET /links', 'GET /links', 'POST /links']);
  });
});

describe('the request stored nothing', () => {
  test('after a 503 the account shows no new link, twice: sent once more, one link', async () => {
    const { client, clock, calls } = setup([status(503), ...looks([older]), createdAnswer]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
    expect(clock.sleeps).toContain(1500);
  });

  test('a link with the same target made before the request, below a newer one, is not taken for this one', async () => {
    const before = link({ id: '3', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(-120_000) });
    const newer = link({ id: '4', targetUrl: 'https://example.org/unrelated', createdAt: at(-500) });
    const { client, calls } = setup([status(502, DATE), ...looks([newer, before, older]), createdAnswer]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
  });

  test('failing every time, it ends with the failure and says that nothing was created', async () => {
    const steps: Step[] = [];
    for (let attempt = 0; attempt < 4; attempt++) steps.push(status(503), ...looks([older]));
    const { client, calls } = setup(steps);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toMatch(/Nothing was created \(checked in the account\), so it is safe to try again\./);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(4);
  });
});

describe('when the evidence does not prove it, the answer is "unknown" and says how to check', () => {
  const unknown = async (steps: Step[], create: { targetUrl: string; title: string; slug?: string } = input, options: { markCreates?: boolean } = {}) => {
    const { client, calls } = setup(steps, options);
    const error = (await client.createLink(create).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.kind).toBe('outcome_unknown');
    return { error, calls: calls() };
  };

  test('two callers, one target: both links in the window, so neither is named', async () => {
    const theirs = link({ id: '12', slug: 'x12', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const { error, calls } = await unknown([status(502, DATE), ...looks([theirs, stored, older])]);
    expect(error.message).toMatch(/2 links with this target URL appeared meanwhile \(another step or workflow may have created the same link\)/);
    expect(calls.filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('the only candidate is the newest link and made before the request: it may be another caller\'s, so not taken and not sent again', async () => {
    const before = link({ id: '3', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(-120_000) });
    const { error, calls } = await unknown([status(502, DATE), ...looks([before, older])]);
    expect(error.message).toMatch(/could not be read closely enough to tell it from one made by another step or workflow/);
    expect(calls.filter((call) => call === 'POST /links')).toHaveLength(1);
  });

  test('no Date header and no link of its own yet: the clock is unknown, so a candidate is not taken', async () => {
    const { error } = await unknown([{ fail: 'ECONNRESET' }, page([stored, older]), page([stored, older])]);
    expect(error.message).toBe(
      'Network error (ECONNRESET) on POST short.example.com: the connection was reset before an answer came. The outcome is unknown: a link was asked for with Target URL https://example.org/spring, Title "Spring". ' +
        'The link may have been created, and a link with this target URL (id 9) appeared, but the service\'s clock could not be read closely enough to tell it from one made by another step or workflow. ' +
        'Look it up by its target URL (Find) before running this item again.',
    );
  });

  test('no Date header, but the client made a link before: its own 201 bounds the clock, so the candidate is taken', async () => {
    const { client } = setup([
      { status: 201, headers: {}, body: created({ id: '8', targetUrl: 'https://example.org/first', createdAt: at(0) }) },
      { fail: 'ECONNRESET' },
      page([stored, older]),
      page([stored, older]),
    ]);
    await client.createLink({ targetUrl: 'https://example.org/first' });
    await expect(client.createLink(input)).resolves.toEqual(stored);
  });

  test('the lookup itself fails, three rounds', async () => {
    const { error, calls } = await unknown([status(502, DATE), ...Array.from({ length: 12 }, () => status(500))]);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^Failed \(502 Bad Gateway\)\. The outcome is unknown: a link was asked for with Target URL https:\/\/example\.org\/spring, Title "Spring"\. The link may have been created, and looking for it failed \(Failed \(500 Internal Server Error\)\)\. Look it up by its target URL \(Find\) before running this item again\.$/);
    expect(calls).toEqual(['POST /links', ...Array.from({ length: 12 }, () => 'GET /links')]);
  });

  test('a 2xx said it was created but the link is not in the list yet', async () => {
    const { error, calls } = await unknown([{ status: 201, headers: {}, body: '' }, ...looks([older])]);
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
    const { error, calls } = await unknown([status(503), ...looks([older]), status(409, {}, { title: 'Conflict', status: 409, detail: 'slug taken' }), ...looks([older])], {
      ...input,
      slug: 'spring',
    });
    expect(error.message).toMatch(/its slug is taken now \(the list does not show the link holding it yet, so the first attempt may have made it\)/);
    expect(calls.filter((call) => call === 'POST /links')).toHaveLength(2);
  });
});

describe('a resend\'s 409 and the marker', () => {
  test('a resend\'s 409 whose holder is this create\'s link (the list lagged): the holder is the answer', async () => {
    const holder = link({ id: '9', slug: 'spring', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const conflict = status(409, {}, { title: 'Conflict', status: 409, detail: 'slug taken' });
    const { client, calls } = setup([status(502, DATE), ...looks([older]), conflict, ...looks([holder, older], 1_500)]);
    await expect(client.createLink({ ...input, slug: 'spring' })).resolves.toEqual(holder);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(2);
  });

  test('a first 409 is the user\'s conflict, as before', async () => {
    const { client } = setup([status(409, {}, { title: 'Conflict', status: 409, detail: 'slug taken' })]);
    await expect(client.createLink({ ...input, slug: 'spring' })).rejects.toBeInstanceOf(ConflictError);
  });

  test('markCreates: the client sends a slug of its own, and only the link carrying it is the answer, whatever the clock and other callers', async () => {
    // random() is 0 in these tests: the marker is "AAAAAAAAAA".
    const mine = link({ id: '31', slug: 'AAAAAAAAAA', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const theirs = link({ id: '32', slug: 'other', targetUrl: input.targetUrl, title: 'Spring', createdAt: at(0) });
    const { client, transport } = setup([{ fail: 'ECONNRESET' }, page([theirs, mine, older]), page([theirs, mine, older])], { markCreates: true });
    await expect(client.createLink(input)).resolves.toEqual(mine);
    expect(transport.requests[0]!.body).toEqual({ ...input, slug: 'AAAAAAAAAA' });
  });

  test('markCreates leaves a slug the user chose alone', async () => {
    const { client, transport } = setup([createdAnswer], { markCreates: true });
    await client.createLink({ ...input, slug: 'spring' });
    expect(transport.requests[0]!.body).toEqual({ ...input, slug: 'spring' });
  });
});
