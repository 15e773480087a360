/**
 * The variant table (docs/api-contract.md, "Where the service may differ"): every row a stand-in of the
 * service that made another spec-legal choice (test/support/variants), run against the three clients as
 * users run them — the core, the built n8n node through its n8n host, and the Zapier build zip through its
 * own handler — for list all, find, find-or-create, update and the New Link trigger (plus deletes, the
 * domain picker, the connection label and the 402/403 advice where a row is about them).
 *
 * The rendered table is written to the run's artifacts folder and must equal the one in
 * docs/api-contract.md (SHORTLINK_WRITE_VARIANT_TABLE=1 writes it there instead).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/n8n/runtime';
import { coreDriver, n8nDriver, zapierDriver } from '../support/variants/variant-clients';
import { VARIANT_CASES } from '../support/variants/variant-cases';
import { runVariant, type VariantResult } from '../support/variants/variant-run';
import { renderVariantTable, tableIn, TABLE_END, TABLE_START } from '../support/variants/variant-table';
import { buildZapierZip } from './support/artifacts';
import { ZapierHandler } from './support/zapier-handler';

const handler = new ZapierHandler();
const results: VariantResult[] = [];
const CLIENTS = ['core', 'n8n', 'Zapier'];
const CONTRACT = join(repoRoot, 'docs', 'api-contract.md');

beforeAll(async () => {
  await handler.start(buildZapierZip());
}, 300_000);

afterAll(async () => {
  await handler.stop();
});

describe.each(VARIANT_CASES.map((variant) => [variant.id, variant] as const))('variant %s', (_id, variant) => {
  it('every operation in every client does what the row expects; nothing reaches another host', async () => {
    const result = await runVariant(variant, [coreDriver, n8nDriver, zapierDriver(handler)]);
    results.push(result);
    expect(result.foreignRequests).toBe(0);
    for (const client of CLIENTS) {
      const failed = Object.entries(result.clients[client] ?? {}).filter(([, outcome]) => !outcome.ok);
      expect({ client, failed }).toEqual({ client, failed: [] });
    }
  }, 300_000);
});

describe('the table', () => {
  it('is the one in docs/api-contract.md', () => {
    expect(results).toHaveLength(VARIANT_CASES.length);
    const table = renderVariantTable(results, CLIENTS);
    const artifacts = process.env.SHORTLINK_E2E_ARTIFACTS ?? repoRoot;
    writeFileSync(join(artifacts, 'variant-table.md'), `${table}\n`);
    process.stderr.write(`\nvariant table written to ${join(artifacts, 'variant-table.md')}\n`);
    const contract = readFileSync(CONTRACT, 'utf8');
    if (process.env.SHORTLINK_WRITE_VARIANT_TABLE === '1') {
      const start = contract.indexOf(TABLE_START);
      const end = contract.indexOf(TABLE_END);
      writeFileSync(CONTRACT, `${contract.slice(0, start + TABLE_START.length)}\n${table}\n${contract.slice(end)}`);
    }
    expect(tableIn(readFileSync(CONTRACT, 'utf8'))).toBe(table);
  });
});
