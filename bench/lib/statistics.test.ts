import { median, rateUse } from './statistics';

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
