/** The pieces any trigger event reuses: the poll guard, the state owner, wall time in a time zone. */
import { createPollGuard, credentialFingerprint } from '../src/faces/host';
import { readDateTime } from '../src/forms/date-input';
import { checkStateOwner } from '../src/polls/state-owner';

describe('createPollGuard', () => {
  test('a poll that starts while one with the same key runs returns at once; other keys run', async () => {
    const guard = createPollGuard();
    let release!: () => void;
    const first = guard.run('wf:node', () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await expect(guard.run('wf:node', async () => 'second')).resolves.toMatchObject({ ran: false });
    await expect(guard.run('wf:other', async () => 'other')).resolves.toEqual({ ran: true, value: 'other' });
    release();
    await expect(first).resolves.toEqual({ ran: true, value: 'first' });
    await expect(guard.run('wf:node', async () => 'third')).resolves.toEqual({ ran: true, value: 'third' });
  });

  test('a failed poll frees its key', async () => {
    const guard = createPollGuard();
    await expect(guard.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(guard.run('k', async () => 1)).resolves.toEqual({ ran: true, value: 1 });
  });

  test('a poll holding its key past staleAfterMs no longer blocks', async () => {
    let now = 0;
    const guard = createPollGuard({ staleAfterMs: 1000, now: () => now });
    void guard.run('k', () => new Promise(() => undefined));
    now = 999;
    await expect(guard.run('k', async () => 1)).resolves.toEqual({ ran: false, runningForMs: 999 });
    now = 1000;
    await expect(guard.run('k', async () => 2)).resolves.toEqual({ ran: true, value: 2 });
  });
});

describe('state owner', () => {
  test('the fingerprint tells keys apart and does not contain the key', () => {
    const a = credentialFingerprint('sk_live_AAAAAAAAAAAAAAAAAAAAAAAA');
    const b = credentialFingerprint('sk_live_AAAAAAAAAAAAAAAAAAAAAAAB');
    expect(a).toMatch(/^fnv:[0-9a-f]{16}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('AAAA');
    expect(credentialFingerprint('')).toBe('');
  });

  test('GET /me is asked only for a new state or a changed credential', async () => {
    const asked: string[] = [];
    const current = (credential: string, account: string) => ({
      baseUrl: 'https://s.example',
      credential,
      whoAmI: async () => {
        asked.push(credential);
        return account;
      },
    });
    const bound = await checkStateOwner(undefined, current('k1', '1'));
    expect(bound).toEqual({ verdict: 'new', owner: { baseUrl: 'https://s.example', credential: 'k1', account: '1' } });
    expect((await checkStateOwner(bound.owner, current('k1', '1'))).verdict).toBe('same');
    expect((await checkStateOwner(bound.owner, current('k2', '1'))).verdict).toBe('same');
    expect((await checkStateOwner(bound.owner, current('k3', '2'))).verdict).toBe('other');
    expect((await checkStateOwner(bound.owner, { ...current('k1', '1'), baseUrl: 'https://t.example' })).verdict).toBe('other');
    expect(asked).toEqual(['k1', 'k2', 'k3', 'k1']);
  });
});

// The trigger's "Created Since" is read as every date field is (date-input.ts); these are the cases it meets.
describe('Created Since through readDateTime', () => {
  const read = (text: string, timeZone: string) => readDateTime(text, { field: 'Created Since', timeZone });
  test.each([
    ['2026-12-31T00:00:00', 'Europe/Berlin', '2026-12-30T23:00:00.000Z'],
    ['2026-07-01T00:00:00', 'Europe/Berlin', '2026-06-30T22:00:00.000Z'],
    ['2026-03-29T02:30:00', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'], // in the hour DST skips
    ['2026-07-01 09:15', 'America/New_York', '2026-07-01T13:15:00.000Z'],
    ['2026-07-01', 'UTC', '2026-07-01T00:00:00.000Z'],
    ['2026-07-01T09:15:00+02:00', 'America/New_York', '2026-07-01T07:15:00.000Z'],
    ['2026-07-01T09:15:00Z', 'Asia/Tokyo', '2026-07-01T09:15:00.000Z'],
  ])('%s in %s is %s', (text, zone, expected) => {
    expect(read(text, zone)).toBe(expected);
  });

  test.each(['31/12/2026', '2026-13-01T00:00:00', '2026-02-30T00:00:00', '2026-01-01T25:00:00', 'tomorrow'])('%s is refused, naming the field', (text) => {
    expect(() => read(text, 'UTC')).toThrow(/^Created Since must be a date and time/);
  });

  test('an unknown time zone is named', () => {
    expect(() => read('2026-07-01T00:00:00', 'Mars/Olympus')).toThrow(/Mars\/Olympus/);
  });
});
