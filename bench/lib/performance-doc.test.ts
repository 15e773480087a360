/** The writer of docs/performance.md's table: a run replaces its figure sets' rows and nothing else. */
import { BLOCK_END, BLOCK_START, parseBlock, renderBlock, runId, withRun } from './performance-doc';
import { row } from './results';

const OLD = { id: '2026-11-22 full run', command: 'npm run bench', node: 'v24.21.0', seconds: 251 };
const NEW = { id: runId(new Date('2026-11-27T07:40:12Z')), command: 'BENCH_ONLY=artifacts npm run bench', node: 'v24.21.0', seconds: 9 };

const doc = (block: string) => `# Performance\n\nBefore.\n\n${block}\n\nAfter.\n`;
const start = doc(
  renderBlock({
    rows: [
      { figure: 'Bulk: rate use', value: '0.998', unit: 'achieved/allowed', goal: '≥ 0.95', baseline: '0.915', met: 'yes', 'figure set': 'bulk', run: OLD.id },
      { figure: 'Artifact: n8n package tarball', value: '45.7', unit: 'KB', goal: '≤ 60', baseline: '–', met: 'yes', 'figure set': 'artifacts', run: OLD.id },
      { figure: 'Artifact: old row', value: '1', unit: 'x', goal: '–', baseline: '–', met: '–', 'figure set': 'artifacts', run: OLD.id },
    ],
    runs: [OLD],
  }),
);

it('names the run by its start in UTC, to the minute', () => {
  expect(NEW.id).toBe('2026-11-27 07:40 UTC');
});

it('reads back what it wrote', () => {
  const parsed = parseBlock(start);
  expect(parsed.runs).toEqual([OLD]);
  expect(parsed.rows.map((r) => [r.figure, r.value, r['figure set'], r.run])).toEqual([
    ['Bulk: rate use', '0.998', 'bulk', OLD.id],
    ['Artifact: n8n package tarball', '45.7', 'artifacts', OLD.id],
    ['Artifact: old row', '1', 'artifacts', OLD.id],
  ]);
  expect(renderBlock(parsed)).toBe(start.slice(start.indexOf(BLOCK_START), start.indexOf(BLOCK_END) + BLOCK_END.length));
});

it("replaces all rows of the run's figure sets in place, keeps the others and the text around the table", () => {
  const tarball = row('Artifact: n8n package tarball', 74.6, 'KB', { op: '<=', target: 60 }, null);
  const updated = withRun(start, new Map([['artifacts', [tarball]]]), NEW);
  expect(updated.startsWith('# Performance\n\nBefore.\n\n')).toBe(true);
  expect(updated.endsWith('\n\nAfter.\n')).toBe(true);
  const parsed = parseBlock(updated);
  expect(parsed.rows.map((r) => [r.figure, r.value, r.met, r.run])).toEqual([
    ['Bulk: rate use', '0.998', 'yes', OLD.id],
    ['Artifact: n8n package tarball', '74.6', 'NO', NEW.id],
  ]);
  expect(parsed.runs).toEqual([OLD, NEW]);
});

it('adds a new figure set at the end and drops runs no row quotes any more', () => {
  const once = withRun(start, new Map([['bulk', [row('Bulk: rate use', 0.99, 'achieved/allowed', { op: '>=', target: 0.95 }, 0.9)]]]), NEW);
  const twice = withRun(once, new Map([['artifacts', [row('Artifact: zip', 815, 'KB', null, null)]], ['lookups', [row('Lookups: requests', 50, 'requests', null, null)]]]), NEW);
  const parsed = parseBlock(twice);
  expect(parsed.rows.map((r) => [r.figure, r['figure set']])).toEqual([
    ['Bulk: rate use', 'bulk'],
    ['Artifact: zip', 'artifacts'],
    ['Lookups: requests', 'lookups'],
  ]);
  expect(parsed.runs).toEqual([NEW]);
  expect(renderBlock(parsed)).not.toContain(OLD.id);
});

it('refuses a document without the block', () => {
  expect(() => parseBlock('# Performance\n')).toThrow(/no bench:results block/);
});
