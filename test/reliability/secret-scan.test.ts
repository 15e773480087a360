/** The scanner behind the secrets tests finds a key wherever an error or an output could carry it. */
import { findSecret } from './support/secret-scan';

const KEY = 'sk_live_CANARY_scan_0123456789';

describe('findSecret', () => {
  test('finds the key in message, stack, a nested cause, a non-enumerable property, a Map and a Buffer', () => {
    const inner = new Error('inner');
    Object.defineProperty(inner, 'config', { value: { headers: { Authorization: `Bearer ${KEY}` } }, enumerable: false });
    const outer = new Error('outer', { cause: inner });
    expect(findSecret(outer, KEY)).toEqual(expect.arrayContaining(['$.cause.config.headers.Authorization']));
    expect(findSecret(new Error(`bad ${KEY}`), KEY)).toEqual(expect.arrayContaining(['$.message', '$.stack']));
    expect(findSecret({ logs: new Map([['line', `x ${KEY}`]]) }, KEY)).toHaveLength(1);
    expect(findSecret([Buffer.from(`token=${KEY}`)], KEY)).toEqual(['$.0']);
  });

  test('survives cycles and reports nothing for clean values', () => {
    const cyclic: Record<string, unknown> = { name: 'clean' };
    cyclic.self = cyclic;
    expect(findSecret([cyclic, new Error('clean'), 42, null, undefined], KEY)).toEqual([]);
  });
});
