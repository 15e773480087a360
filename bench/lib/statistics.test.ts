import { evenShares, median, rateUse } from './statistics';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('refuses an empty list', () => {
    expect(() => median([])).toThrow('median of no values');
  });
});

describe('rateUse', () => {
  const limit = 120;
  const windowMs = 6000;

  it('is 1.0 for an ideal client: a whole window at once, then a whole window at each reset', () => {
    expect(rateUse(600, 4 * windowMs, limit, windowMs)).toBe(1);
  });

  it('falls with every second a client waits past the resets', () => {
    expect(rateUse(600, 4 * (windowMs + 1000), limit, windowMs)).toBeCloseTo(600 / (120 * (1 + 28 / 6)), 10);
    expect(rateUse(600, 4 * (windowMs + 1000), limit, windowMs)).toBeLessThan(0.9);
  });

  it('counts only successes: a fast loop that fails half its items is at half the envelope', () => {
    expect(rateUse(120, 0, limit, windowMs)).toBe(1);
    expect(rateUse(60, 0, limit, windowMs)).toBe(0.5);
  });

  it('rejects a negative span or a window without requests', () => {
    expect(() => rateUse(1, -1, limit, windowMs)).toThrow();
    expect(() => rateUse(1, 1, 0, windowMs)).toThrow();
  });
});

describe('evenShares', () => {
  it('splits the items over the clients, the first ones taking what does not divide', () => {
    expect(evenShares(600, 4)).toEqual([150, 150, 150, 150]);
    expect(evenShares(600, 16)).toEqual([...Array<number>(8).fill(38), ...Array<number>(8).fill(37)]);
    expect(evenShares(600, 16).reduce((sum, n) => sum + n, 0)).toBe(600);
    expect(evenShares(2, 3)).toEqual([1, 1, 0]);
  });

  it('rejects no parts or a fractional total', () => {
    expect(() => evenShares(10, 0)).toThrow();
    expect(() => evenShares(1.5, 2)).toThrow();
  });
});
