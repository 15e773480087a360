/**
 * The variant table's core and n8n columns in every `npm test` (the Zapier column needs the built zip and
 * runs with the end-to-end suite, test/e2e/variants.e2e.ts, which also writes the whole table): each row
 * is a stand-in of the service that made another spec-legal choice (test/support/variants), over real
 * HTTP, and every operation must do what the row expects. Plus one large account in the hardest paging
 * dialect. The n8n column drives the BUILT node (dist/), as `npm test` builds it first.
 */
import { createClient } from '@shortlink/core';
import { coreDriver, n8nDriver } from '../support/variants/variant-clients';
import { VARIANT_CASES, operationsOf } from '../support/variants/variant-cases';
import { runVariant } from '../support/variants/variant-run';
import { startSeededSandbox } from '../support/variants/seeded-sandbox';
import { startVariantService } from '../support/variants/variant-service';

describe.each(VARIANT_CASES.map((variant) => [variant.id, variant] as const))('variant %s', (_id, variant) => {
  it(`core and n8n: ${operationsOf(variant).join(', ')} as expected`, async () => {
    const result = await runVariant(variant, [coreDriver, n8nDriver]);
    expect(result.foreignRequests).toBe(0);
    for (const client of ['core', 'n8n']) {
      const failed = Object.entries(result.clients[client] ?? {}).filter(([, outcome]) => !outcome.ok);
      expect({ client, failed }).toEqual({ client, failed: [] });
    }
  }, 180_000);
});

describe('a large account', () => {
  it('10,000 links behind a Link header, 50 a page at most and a page_token cursor: all of them, each once, in order', async () => {
    const seeded = await startSeededSandbox(10_000, 'large');
    const service = await startVariantService(seeded.sandbox.baseUrl, { paging: 'link-header', maxPageSize: 50, cursorParameter: 'page_token', openApi: 'absent' });
    try {
      const client = createClient({ baseUrl: service.baseUrl, apiKey: seeded.apiKey });
      const ids: string[] = [];
      for await (const link of client.iterateLinks()) ids.push(link.id);
      expect(ids).toEqual(seeded.sandbox.links(seeded.accountId).map((link) => link.id));
      // One refused request to learn the page size, then 200 pages of 50: nothing more.
      expect(service.calls.filter((call) => call.url.startsWith('/api/v1/links')).length).toBe(201);
      expect(client.serviceProfile()).toMatchObject({ maxPageSize: 50, maxPageSizeFrom: 'refusal detail', paging: { form: 'Link header' }, openApiDocument: 'not read' });
    } finally {
      await service.close();
      await seeded.close();
    }
  }, 180_000);
});
