/**
 * `npm run check:live` checked against the sandbox: no differences where the service is the document,
 * and the differences reported when a proxy in front of the sandbox alters some answers. The script runs
 * as a user runs it (a child process with SHORTLINK_BASE_URL / SHORTLINK_API_KEY).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { node24Env, repoRoot } from '../../scripts/n8n/runtime';
import { startSeededSandbox } from '../support/variants/seeded-sandbox';
import { startVariantService } from '../support/variants/variant-service';

let sandbox: Sandbox;
let proxy: Server;
let proxyUrl: string;

function checkLive(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/check-live.ts', ...args], {
      cwd: repoRoot,
      env: node24Env({ SHORTLINK_BASE_URL: undefined, SHORTLINK_API_KEY: undefined, ...env }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Forwards to the sandbox and alters two answers: a single link loses `hasPassword`, and an
 * out-of-range page size gets 400 instead of the documented 422.
 */
function startAlteringProxy(): Promise<void> {
  proxy = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const upstream = await fetch(`${sandbox.baseUrl}${request.url}`, {
        method: request.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        redirect: 'manual',
      });
      let status = upstream.status;
      let text = await upstream.text();
      const path = (request.url ?? '').split('?')[0]!;
      if (request.method === 'GET' && /^\/api\/v1\/links\/\d+$/.test(path) && status === 200) {
        const link = JSON.parse(text) as Record<string, unknown>;
        delete link.hasPassword;
        text = JSON.stringify(link);
      }
      if ((request.url ?? '').includes('limit=101')) status = 400;
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(name)) out[name] = value;
      });
      response.writeHead(status, out);
      response.end(text);
    });
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      const address = proxy.address();
      proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  // The service's own limit (120 per minute): the checker compares RateLimit-Limit with it. The three
  // runs below send about 45 requests.
  sandbox = await startSandbox();
  await startAlteringProxy();
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await sandbox?.close();
});

const writes = () => sandbox.requests.filter((request) => request.method !== 'GET');

describe('npm run check:live', () => {
  it('finds no difference on the sandbox, read-only, sending no write; its choices line names the project\'s own', async () => {
    const before = writes().length;
    const { code, output } = await checkLive([], { SHORTLINK_BASE_URL: sandbox.baseUrl, SHORTLINK_API_KEY: sandbox.apiKey });
    expect(output).toContain('No differences from docs/api-contract.md and openapi/short-link-api.yaml.');
    expect(code).toBe(0);
    expect(writes().length).toBe(before);
    expect(output).not.toContain(sandbox.apiKey);
    expect(output).toContain(
      'Please send this line back to the maintainers:\n\nshortlink-service-choices/1; paging=document (nextCursor); cursor parameter=cursor; page size parameter=limit; max page size=(not seen); openapi.json=served; update answer=(not seen); delete answer=(not seen); domain hostname field=hostname; account name field=name; openapi.json names cursor=cursor, page size=limit, max 100; wrong key=401 (reconnect); plan without API access=(not checked: needs a key of such a plan)',
    );
  });

  it('names the choices of a service that chose otherwise everywhere, in one line', async () => {
    const seeded = await startSeededSandbox(30, 'live-check');
    const service = await startVariantService(seeded.sandbox.baseUrl, {
      paging: 'link-header',
      maxPageSize: 50,
      cursorParameter: 'page_token',
      openApi: 'absent',
      update: 'empty',
      deleteStatus: 200,
      domainHostnameField: 'name',
      account: 'wrapped',
      wrongKeyStatus: 403,
    });
    try {
      const { output } = await checkLive(['--write'], { SHORTLINK_BASE_URL: service.baseUrl, SHORTLINK_API_KEY: seeded.apiKey });
      expect(output).toContain(
        '\nshortlink-service-choices/1; paging=Link header (Link header); cursor parameter=cursor; page size parameter=limit; max page size=50 (from refusal detail); openapi.json=not served (404 Not Found); update answer=empty (204); delete answer=200; domain hostname field=name; account name field=name (in data); wrong key=403 (reconnect); plan without API access=(not checked: needs a key of such a plan)\n',
      );
      expect(output).not.toContain(seeded.apiKey);
      // The throwaway link is gone although the service answered the delete with 200, not 204.
      expect(seeded.sandbox.links(seeded.accountId)).toHaveLength(30);
    } finally {
      await service.close();
      await seeded.close();
    }
  });

  it('with --write creates, updates and deletes one throwaway link, leaving the account as it was', async () => {
    const linksBefore = sandbox.links(sandbox.demoAccountId).map((link) => link.id);
    const before = writes().length;
    const { code, output } = await checkLive(['--write'], { SHORTLINK_BASE_URL: `${sandbox.baseUrl}/api/v1/`, SHORTLINK_API_KEY: sandbox.apiKey });
    expect(output).toContain('No differences');
    expect(code).toBe(0);
    const sent = writes().slice(before).map((request) => `${request.method} ${request.path.replace(/\d+$/, '{id}')}`);
    expect(sent).toEqual(['POST /api/v1/links', 'POST /api/v1/links', 'PATCH /api/v1/links/{id}', 'DELETE /api/v1/links/{id}']);
    expect(sandbox.links(sandbox.demoAccountId).map((link) => link.id)).toEqual(linksBefore);
  });

  it('reports each altered answer as a row of the differences table, exit code 1', async () => {
    const { code, output } = await checkLive([], { SHORTLINK_BASE_URL: proxyUrl, SHORTLINK_API_KEY: sandbox.apiKey });
    expect(code).toBe(1);
    expect(output).toContain('| # | Check | Expected (document) | Live service |');
    expect(output).toMatch(/\| Get \(GET \/links\/\{id\}\): body \| must have required property 'hasPassword'/);
    expect(output).toMatch(/\| List, limit=101 → 422: status \| 422 \(listLinks \(GET \/links\)\) \| 400 /);
    expect(output).toContain('2 differences:');
    expect(output).not.toContain(sandbox.apiKey);
  });

  it('says which setting is missing, exit code 2', async () => {
    const { code, output } = await checkLive([], { SHORTLINK_BASE_URL: sandbox.baseUrl });
    expect(code).toBe(2);
    expect(output).toContain('SHORTLINK_API_KEY must be set.');
  });
});
