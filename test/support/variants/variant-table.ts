/**
 * The variant table as markdown (docs/api-contract.md shows the same table between the markers below; the
 * end-to-end run checks that they agree). A cell is ✓ with the number of operations that behaved as the
 * row expects, or ✗ naming each operation that did not and what happened.
 */
import { operationsOf } from './variant-cases';
import type { VariantResult } from './variant-run';

export const TABLE_START = '<!-- variant-table:start (written by test/e2e/variants.e2e.ts) -->';
export const TABLE_END = '<!-- variant-table:end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderVariantTable(results: VariantResult[], clients: string[]): string {
  const lines = [
    `| Service choice | Operations in each client | Expected | ${clients.join(' | ')} |`,
    `|---|---|---|${clients.map(() => '---').join('|')}|`,
  ];
  for (const { variant, clients: byClient, foreignRequests } of results) {
    const operations = operationsOf(variant);
    const expected = variant.fails
      ? `${variant.fails.operations.join(', ')} stop with ${variant.fails.says}; nothing created; ${operations.filter((op) => !variant.fails!.operations.includes(op)).join(', ')} as usual`
      : 'every operation works: all links, each once; the whole link after an update';
    const cells = clients.map((client) => {
      const outcome = byClient[client] ?? {};
      const bad = operations.filter((operation) => !outcome[operation]?.ok);
      if (foreignRequests > 0) bad.push('list all');
      if (bad.length === 0) return `✓ ${operations.length}/${operations.length}`;
      return `✗ ${bad.map((operation) => `${operation}: ${outcome[operation]?.detail ?? (foreignRequests > 0 ? `${foreignRequests} requests reached the other host` : 'not run')}`).join('; ')}`;
    });
    lines.push(`| ${cell(variant.label)} | ${operations.join(', ')} | ${cell(expected)} | ${cells.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The table between the markers of a markdown text, or undefined when the markers are missing. */
export function tableIn(markdown: string): string | undefined {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return markdown.slice(start + TABLE_START.length, end).trim();
}
