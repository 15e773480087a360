/**
 * docs/performance.md's figures come from runs of the bench: its table is exactly what the bench's writer
 * renders (no hand edits), each row names a run listed under it, and the figure anyone can check in seconds —
 * the n8n tarball users install — agrees with the package as built now, so a change that grows it cannot
 * leave an old number in the document.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { BLOCK_END, BLOCK_START, parseBlock, renderBlock } from '../../bench/lib/performance-doc';

const root = resolve(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'performance.md'), 'utf8');
const results = parseBlock(doc);
const valueOf = (figure: string) => results.rows.find((row) => row.figure === figure)?.value;

it('the table is as the bench writes it', () => {
  expect(doc.slice(doc.indexOf(BLOCK_START), doc.indexOf(BLOCK_END) + BLOCK_END.length)).toBe(renderBlock(results));
  expect(results.rows.length).toBeGreaterThan(40);
});

it('every row comes from a listed run', () => {
  const runs = new Set(results.runs.map((run) => run.id));
  expect(results.rows.filter((row) => !runs.has(row.run)).map((row) => row.figure)).toEqual([]);
});

it('the n8n tarball row agrees with the built package within 5 %, and it has no runtime dependency', () => {
  const n8nDir = join(root, 'packages', 'n8n-nodes-shortlink');
  expect(existsSync(join(n8nDir, 'dist'))).toBe(true); // npm test builds before jest runs
  // The bench's own measurement (bench/figures/artifacts.ts): npm pack --dry-run of the built package.
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: n8nDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ size: number }>;
  const documentedKb = Number(valueOf('Artifact: n8n package tarball'));
  const builtKb = packed!.size / 1024;
  // When this fails: `BENCH_ONLY=artifacts BENCH_SKIP_BUILD=1 npm run bench` writes the current figures.
  expect(Math.abs(documentedKb - builtKb) / builtKb).toBeLessThanOrEqual(0.05);
  expect(valueOf('Artifact: n8n runtime dependencies')).toBe('0');
}, 60_000);
