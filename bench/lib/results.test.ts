import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTable, roundForDisplay, row, writeResults } from './results';

describe('row', () => {
  it('computes met from the value and the goal', () => {
    expect(row('a', 0.97, 'x', { op: '>=', target: 0.95 }, null).met).toBe(true);
    expect(row('a', 0.94, 'x', { op: '>=', target: 0.95 }, null).met).toBe(false);
    expect(row('b', 1, 'req', { op: '<=', target: 1 }, 12).met).toBe(true);
    expect(row('b', 2, 'req', { op: '<=', target: 1 }, 12).met).toBe(false);
    expect(row('c', 0, 'items', { op: '=', target: 0 }, 480).met).toBe(true);
    expect(row('c', 3, 'items', { op: '=', target: 0 }, 480).met).toBe(false);
  });

  it('judges the exact value, not the rounded one shown', () => {
    const nearly = row('a', 0.9499, 'x', { op: '>=', target: 0.95 }, null);
    expect(nearly.value).toBe(0.95);
    expect(nearly.met).toBe(false);
  });

  it('has no goal and met null for a figure reported without a goal', () => {
    expect(row('zip', 813.2, 'KB', null, null)).toEqual({ name: 'zip', value: 813, unit: 'KB', goal: null, baseline: null, met: null });
  });

  it('writes the goal as text people read', () => {
    expect(row('a', 1, 'x', { op: '>=', target: 0.95 }, null).goal).toBe('≥ 0.95');
    expect(row('a', 1, 'x', { op: '<=', target: 11 }, null).goal).toBe('≤ 11');
    expect(row('a', 0, 'x', { op: '=', target: 0 }, null).goal).toBe('= 0');
  });
});

describe('roundForDisplay', () => {
  it('keeps three significant digits and leaves integers alone', () => {
    expect(roundForDisplay(0.98765)).toBe(0.988);
    expect(roundForDisplay(1.23456)).toBe(1.23);
    expect(roundForDisplay(40.8123)).toBe(40.8);
    expect(roundForDisplay(812.99)).toBe(813);
    expect(roundForDisplay(600)).toBe(600);
    expect(Number.isNaN(roundForDisplay(Number.NaN))).toBe(true);
  });
});

describe('formatTable and writeResults', () => {
  const rows = [row('core: failed items', 0, 'items', { op: '=', target: 0 }, 480), row('zip', 813, 'KB', null, null)];

  it('prints one aligned line per row, NO for a missed goal and – for none', () => {
    const lines = formatTable([...rows, row('slow', 0.8, 'x', { op: '>=', target: 0.95 }, 0.9)]).split('\n');
    expect(lines).toHaveLength(5);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[2]).toMatch(/\| core: failed items \| 0 +\| items \| = 0 +\| 480 +\| yes \|/);
    expect(lines[3]).toMatch(/\| zip .*\| – +\| – +\| – +\|$/);
    expect(lines[4]).toMatch(/\| NO +\|$/);
  });

  it('writes the rows as a JSON array of { name, value, unit, goal, baseline, met }', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    try {
      const file = join(dir, 'nested', 'results.json');
      writeResults(file, rows);
      const written = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
      expect(written).toEqual([
        { name: 'core: failed items', value: 0, unit: 'items', goal: '= 0', baseline: 480, met: true },
        { name: 'zip', value: 813, unit: 'KB', goal: null, baseline: null, met: null },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
