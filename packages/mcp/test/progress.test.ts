/**
 * What the server sends for an operation's progress (server.ts progressSender): increasing counts only,
 * at most one every 100 ms except the last, in order, with the key taken out of the message, and a call
 * that waits for them before its result goes out.
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { progressSender } from '../src/server';

test('increasing, throttled to 100 ms but the last, in order, without the key', async () => {
  const sent: ServerNotification[] = [];
  let clock = 0;
  const progress = progressSender('t1', async (notification) => void sent.push(notification), ['sk_secret_key_123'], () => clock);
  progress({ done: 1, message: 'page 1' });
  progress({ done: 1, message: 'again' }); // not increasing
  clock = 50;
  progress({ done: 2 }); // within 100 ms
  clock = 150;
  progress({ done: 3, total: 10, message: 'key sk_secret_key_123 echoed' });
  clock = 160;
  progress({ done: 2, total: 10 }); // going back
  progress({ done: 10, total: 10 }); // the last, even within 100 ms
  expect(await progress.settled()).toBe(true);
  expect(sent.map((notification) => notification.params)).toEqual([
    { progressToken: 't1', progress: 1, message: 'page 1' },
    { progressToken: 't1', progress: 3, total: 10, message: 'key [redacted] echoed' },
    { progressToken: 't1', progress: 10, total: 10 },
  ]);
});

test('a client that has gone does not fail the call', async () => {
  const progress = progressSender(7, async () => Promise.reject(new Error('closed')), []);
  progress({ done: 1 });
  await expect(progress.settled()).resolves.toBe(true);
  expect(await progressSender(8, async () => undefined, []).settled()).toBe(false);
});
