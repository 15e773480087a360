/**
 * One stand-in of the service that chose otherwise almost everywhere (test/support/variants), inside a
 * real n8n: the packed tarball installed as a community package, a credential pointing at the stand-in,
 * one workflow per operation executed with n8n's CLI. The variant table (variants.e2e.ts) drives the built
 * node through its n8n host; this proves the same in n8n itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { N8nInstance, nodeOutput, type ExecutionRun, type WorkflowJson } from '../../scripts/n8n/instance';
import { ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { SEEDED_DOMAIN, startSeededSandbox, type SeededSandbox } from '../support/variants/seeded-sandbox';
import { startVariantService, type VariantService } from '../support/variants/variant-service';
import { freePort } from './support/ports';

const CREDENTIAL = { id: 'slVariantE2e', name: 'Short Link stand-in' };
const NODE = 'Short Link';

let seeded: SeededSandbox;
let service: VariantService;
let n8n: N8nInstance;
let userFolder: string;
const printed: string[] = [];

/** Manual trigger → one Short Link node with `parameters`. */
function workflow(id: string, parameters: Record<string, unknown>): WorkflowJson {
  const trigger = "When clicking 'Execute workflow'";
  return {
    id,
    name: `Stand-in: ${id}`,
    nodes: [
      { id: `${id}-t`, name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      { id: `${id}-s`, name: NODE, type: 'n8n-nodes-shortlink.shortLink', typeVersion: 1, position: [220, 0], parameters, credentials: { shortLinkApi: { id: '', name: '' } } },
    ],
    connections: { [trigger]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

async function run(id: string): Promise<ExecutionRun> {
  const result = await n8n.execute(id);
  printed.push(result.stdout, result.stderr);
  if (result.code !== 0 || !result.run || result.run.data.resultData.error) {
    throw new Error(`n8n execute --id=${id} failed (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
  return result.run;
}

const links = () => seeded.sandbox.links(seeded.accountId);

beforeAll(async () => {
  const runtime = await ensureN8nRuntime();
  seeded = await startSeededSandbox(230, 'n8n-standin');
  service = await startVariantService(seeded.sandbox.baseUrl, {
    paging: 'link-header',
    maxPageSize: 50,
    cursorParameter: 'page_token',
    openApi: 'absent',
    update: 'empty',
    domainHostnameField: 'name',
    account: 'wrapped',
  });
  userFolder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-n8n-variant-'));
  n8n = new N8nInstance({ runtime, userFolder, port: await freePort(), brokerPort: await freePort() });
  const tarball = process.env.SHORTLINK_E2E_TARBALL;
  if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');
  await n8n.installCommunityPackage(tarball);
  await n8n.importCredential({ ...CREDENTIAL, apiKey: seeded.apiKey, baseUrl: service.baseUrl });
  const oldest = links().at(-1)!;
  await n8n.importWorkflows(
    [
      workflow('slVarList', { resource: 'link', operation: 'getAll', returnAll: true }),
      workflow('slVarFind', { resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl: oldest.targetUrl }),
      workflow('slVarUpdate', { resource: 'link', operation: 'update', link: { __rl: true, mode: 'id', value: links().at(-2)!.id }, updateFields: { title: 'Renamed in n8n' } }),
      workflow('slVarDomains', { resource: 'domain', operation: 'getAll' }),
      workflow('slVarAccount', { resource: 'account', operation: 'get' }),
    ],
    CREDENTIAL,
  );
}, 300_000);

afterAll(async () => {
  await n8n?.stop();
  await service?.close();
  await seeded?.close();
  if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

describe('a service with Link-header pages of at most 50, a page_token cursor, 204 updates, `name` domains and a wrapped account, in n8n', () => {
  it('Get Many with Return All lists every link once, in order (one refused page size, then 5 pages of 50)', async () => {
    const before = service.calls.length;
    const listed = nodeOutput(await run('slVarList'), NODE);
    expect(listed.map((link) => link.id)).toEqual(links().map((link) => link.id));
    expect(service.calls.slice(before).filter((call) => call.url.startsWith('/api/v1/links')).map((call) => call.url.replace(/page_token=[^&]+/, 'page_token=…'))).toEqual([
      '/api/v1/links?limit=100',
      '/api/v1/links?limit=50',
      ...Array.from({ length: 4 }, () => '/api/v1/links?limit=50&page_token=…'),
    ]);
  });

  it('Find by target URL reaches the oldest link on the last page', async () => {
    const found = nodeOutput(await run('slVarFind'), NODE);
    expect(found.map((link) => link.id)).toEqual([links().at(-1)!.id]);
  });

  it('Update answered 204 still outputs the whole link', async () => {
    const [item] = nodeOutput(await run('slVarUpdate'), NODE);
    const stored = links().at(-2)!;
    expect(item).toEqual({ ...stored, title: 'Renamed in n8n' });
    expect(stored.title).toBe('Renamed in n8n');
  });

  it('the domains carry hostname and the account its name', async () => {
    expect(nodeOutput(await run('slVarDomains'), NODE)).toEqual([expect.objectContaining({ name: SEEDED_DOMAIN, hostname: SEEDED_DOMAIN })]);
    expect(nodeOutput(await run('slVarAccount'), NODE)).toEqual([expect.objectContaining({ name: 'Seeded Business', email: 'seeded@example.com' })]);
  });

  it('never prints the API key', () => {
    expect(printed.join('\n')).not.toContain(seeded.apiKey);
  });
});
