/**
 * A create is never doubled or falsely failed (docs/guarantees.md): when its outcome is unknown, the client
 * asks the account for the link its request stored before it answers or sends anything again.
 */
import { ServerError, UnknownOutcomeError, createClient } from '../src/portable';
import { BASE_URL, created, fakeClock, link } from './helpers';
import { Step, ok, scriptedTransport, status } from './scripted-transport';

const input = { targetUrl: 'https://example.org/spring', title: 'Spring' };
const page = (links: unknown[], nextCursor: string | null = null): Step => ok({ data: links, nextCursor });
/** A link made well before the request: the walk stops there, so the window is known to be complete. */
const older = link({ id: '1', targetUrl: input.targetUrl, title: 'Spring', createdAt: '2026-03-01T08:00:00.000Z' });
const createdAnswer: Step = { status: 201, headers: {}, body: created({ id: '77', targetUrl: input.targetUrl, title: 'Spring' }) };

function setup(steps: Step[]) {
  const clock = fakeClock();
  const transport = scriptedTransport(steps);
  const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random: () => 0 });
  const calls = () => transport.requests.map((r) => `${r.method} ${r.path}`);
  return { client, clock, calls };
}

describe('the request stored the link, its answer was lost', () => {
  test.each([
    ['a 502', status(502)],
    ['a reset', { fail: 'ECONNRESET' } as Step],
    ['a timeout', { fail: 'ETIMEDOUT' } as Step],
    ['a 201 with a cut-off body', { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"9","sl' } as Step],
  ])('after %s the stored link is the answer, and nothing is sent again', async (_name, lost) => {
    const stored = link({ id: '9', targetUrl: input.targetUrl, title: 'Spring' });
    const { client, calls } = setup([lost, page([stored, older])]);
    await expect(client.createLink(input)).resolves.toEqual(stored);
    expect(calls()).toEqual(['POST /links', 'GET /links']);
  });

  test('with a slug, a link holding that slug for another target is not taken for its own', async () => {
    const other = link({ id: '5', slug: 'spring', targetUrl: 'https://example.org/other' });
    const { client, calls } = setup([status(500), page([other, older]), createdAnswer]);
    await expect(client.createLink({ ...input, slug: 'spring' })).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'POST /links']);
  });

  test('a link this client already returned is never claimed a second time', async () => {
    const first = link({ id: '10', targetUrl: input.targetUrl, title: 'Spring' });
    const { client, calls } = setup([
      { status: 201, headers: {}, body: created({ id: '10', targetUrl: input.targetUrl, title: 'Spring' }) },
      status(502),
      page([first, older]),
      createdAnswer,
    ]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '10' });
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'POST /links', 'GET /links', 'POST /links']);
  });
});

describe('the request stored nothing', () => {
  test('after a 503 the account shows no new link: sent once more, one link', async () => {
    const { client, calls } = setup([status(503), page([older]), createdAnswer]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'POST /links']);
  });

  test('after a reset (nobody answered for it) the client waits a moment and looks again before sending', async () => {
    const { client, clock, calls } = setup([{ fail: 'ECONNRESET' }, page([older]), page([older]), createdAnswer]);
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['POST /links', 'GET /links', 'GET /links', 'POST /links']);
    expect(clock.sleeps).toContain(1500);
  });

  test('a link the service made before the request (by its Date header) is not taken for this one', async () => {
    const date = new Date(Date.parse('2026-03-01T09:30:00.000Z')).toUTCString();
    // Made 2 min before the request on the service's clock: older than the minute of slack a known clock gets.
    const before = link({ id: '3', targetUrl: input.targetUrl, title: 'Spring', createdAt: '2026-03-01T09:28:00.000Z' });
    const { client, calls } = setup([ok({}, { date }), status(502, { date }), page([before]), createdAnswer]);
    await client.getAccount();
    await expect(client.createLink(input)).resolves.toMatchObject({ id: '77' });
    expect(calls()).toEqual(['GET /me', 'POST /links', 'GET /links', 'POST /links']);
  });

  test('failing every time, it ends with the failure and says that nothing was created', async () => {
    const steps: Step[] = [];
    for (let attempt = 0; attempt < 4; attempt++) steps.push(status(503), page([older]));
    const { client, calls } = setup(steps);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toMatch(/Nothing was created \(checked in the account\), so it is safe to try again\./);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(4);
  });
});

describe('when the account cannot settle it, the error says so and how to check', () => {
  test('the lookup itself fails, three rounds of four attempts each', async () => {
    const { client, calls } = setup([status(502), ...Array.from({ length: 12 }, () => status(500))]);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.kind).toBe('outcome_unknown');
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      'Failed (502 Bad Gateway). The link may have been created, and looking for it failed (Failed (500 Internal Server Error)). ' +
        'Look it up by its target URL (Find) before running this item again.',
    );
    expect(calls()).toEqual(['POST /links', ...Array.from({ length: 12 }, () => 'GET /links')]);
  });

  test('a 2xx said it was created but the link is not among the newest', async () => {
    const { client, calls } = setup([{ status: 201, headers: {}, body: '' }, page([older])]);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.message).toMatch(/the service said it was created, but it is not among the newest links/);
    expect(calls()).toEqual(['POST /links', 'GET /links']);
  });

  test('more links were created meanwhile than the lookup reads', async () => {
    const busy = (n: number) => Array.from({ length: 100 }, (_, i) => link({ id: `b${n}-${i}`, targetUrl: `https://example.org/busy/${n}/${i}` }));
    const { client, calls } = setup([status(502), ...[1, 2, 3, 4, 5].map((n) => page(busy(n), `c${n}`))]);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error.message).toMatch(/too many links were created meanwhile to check them all/);
    expect(calls().filter((call) => call === 'POST /links')).toHaveLength(1);
  });
});
