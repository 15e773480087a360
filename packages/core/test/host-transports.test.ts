/** Hosts' transports differ slightly from the seam; the core tolerates the usual differences. */
import { NotFoundError, RateLimitError, createClient } from '../src/portable';
import type { Transport } from '../src/portable';
import { BASE_URL, fakeClock, problem } from './helpers';

function clientWith(transport: Transport) {
  const clock = fakeClock();
  return { clock, client: createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, maxRetries: 0 }) };
}

test('a Headers object (fetch-style) instead of a record', async () => {
  const headers = new Headers({ 'Retry-After': '7', 'Content-Type': 'application/problem+json' });
  const { client } = clientWith(async () => ({ status: 429, headers: headers as never, body: problem(429, 'Too many requests', 'Slow down.') }));
  expect(await client.getAccount().catch((e: unknown) => e)).toMatchObject({ retryAfterMs: 7000 });
});

test('mixed-case header names', async () => {
  const { client, clock } = clientWith(
    (() => {
      let calls = 0;
      return async () => ({
        status: 200,
        headers: calls++ === 0 ? { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '4' } : {},
        body: { id: '1' },
      });
    })(),
  );
  await client.getAccount();
  await client.getAccount();
  expect(clock.sleeps).toEqual([4000]);
});

test('a problem+json body left as text is parsed', async () => {
  const { client } = clientWith(async () => ({
    status: 404,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify(problem(404, 'Not found', 'No link with id 9 exists.')),
  }));
  const error = await client.getLink('9').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect((error as Error).message).toBe('Not found: No link with id 9 exists.');
});

test('a 429 thrown by the host helper (axios-like error.response) is still paced', async () => {
  const { client } = clientWith(async () => {
    throw Object.assign(new Error('Request failed with status code 429'), {
      response: { status: 429, headers: { 'Retry-After': '120' }, data: problem(429, 'Too many requests', 'Wait.') },
    });
  });
  const error = await client.getAccount().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error).toMatchObject({ retryAfterMs: 120_000 });
});
