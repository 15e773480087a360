/**
 * `npm start` as a newcomer runs it (through npm, Ctrl-C to its process group): the playground comes up, prints the editor URL, the login, the
 * sandbox API key and the `zapier-platform invoke` lines; the editor logs in, holds the credential and
 * the example workflows, and runs an example against the sandbox; a printed Zapier line works; Ctrl-C
 * (SIGINT) stops everything.
 */
import { execSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExampleWorkflows } from '../../scripts/n8n/examples';
import { N8nInstance } from '../../scripts/n8n/instance';
import { cachedN8nRuntime, node24Env, repoRoot } from '../../scripts/n8n/runtime';
import { freePort, waitFor } from './support/ports';

let playground: ChildProcessWithoutNullStreams;
let stateDir: string;
let output = '';
let editorPort: number;
let sandboxPort: number;

const line = (label: string) => new RegExp(`^\\s*${label}\\s+(.+)$`, 'm').exec(output)?.[1]?.trim();

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'shortlink-e2e-playground-'));
  editorPort = await freePort();
  sandboxPort = await freePort();
  // Through npm, as a newcomer types it: npm then exports its settings (ignore-scripts among them) to the
  // playground, which must still install and start n8n. Its own process group, so that Ctrl-C below
  // reaches every process of it, as a terminal's does.
  playground = spawn('npm', ['start', '--', '--port', String(editorPort), '--sandbox-port', String(sandboxPort)], {
    cwd: repoRoot,
    env: { ...process.env, SHORTLINK_PLAYGROUND_DIR: stateDir },
    detached: true,
  });
  playground.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  playground.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = await waitFor(() => output.includes('Press Ctrl-C to stop everything.') || playground.exitCode !== null, 240_000, 500);
  if (!ready || playground.exitCode !== null) throw new Error(`npm start did not get ready:\n${output.slice(-4000)}`);
}, 300_000);

/** npm ends by the signal it was sent (as a shell's Ctrl-C does): then exitCode stays null. */
const ended = () => playground.exitCode !== null || playground.signalCode !== null;

afterAll(async () => {
  if (playground && !ended()) {
    process.kill(-playground.pid!, 'SIGINT');
    await waitFor(ended, 30_000);
  }
  rmSync(stateDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints the editor URL, the login, the sandbox API key and the Zapier lines', () => {
    expect(line('n8n editor')).toBe(`http://127.0.0.1:${editorPort}`);
    expect(line('login')).toMatch(/^\S+@\S+ \/ \S+$/);
    expect(line('API key:')).toBe('playground-demo-key');
    expect(output).toContain(`authData_baseUrl=http://127.0.0.1:${sandboxPort} npx zapier-platform invoke auth test`);
  });

  it('opens an editor with the credential and every example workflow, and runs an example against the sandbox', async () => {
    const [email, password] = line('login')!.split(' / ') as [string, string];
    const n8n = new N8nInstance({ runtime: cachedN8nRuntime()!, userFolder: join(stateDir, 'n8n'), port: editorPort });
    expect((await fetch(n8n.editorUrl)).status).toBe(200);
    const cookie = await n8n.login(email, password);

    const workflows = (await (await fetch(`${n8n.editorUrl}/rest/workflows`, { headers: { cookie } })).json()) as { data: Array<{ id: string; name: string }> };
    expect(workflows.data.map((workflow) => workflow.id).sort()).toEqual(loadExampleWorkflows().map((example) => example.workflow.id).sort());
    const credentials = (await (await fetch(`${n8n.editorUrl}/rest/credentials`, { headers: { cookie } })).json()) as { data: Array<{ name: string; type: string }> };
    expect(credentials.data).toEqual([expect.objectContaining({ name: 'Short Link sandbox', type: 'shortLinkApi' })]);

    const sandbox = `http://127.0.0.1:${sandboxPort}/api/v1`;
    const headers = { Authorization: 'Bearer playground-demo-key' };
    const before = ((await (await fetch(`${sandbox}/me`, { headers })).json()) as { usage: { links: number } }).usage.links;
    const execution = await n8n.runInEditor(cookie, 'slManageLink', "When clicking 'Execute workflow'");
    expect(execution.status).toBe('success');
    const page = (await (await fetch(`${sandbox}/links?limit=1`, { headers })).json()) as { data: Array<{ title: string; targetUrl: string }> };
    expect(page.data[0]).toMatchObject({ title: 'Summer sale (extended)', targetUrl: expect.stringContaining('utm_campaign=summer_sale') });
    const after = ((await (await fetch(`${sandbox}/me`, { headers })).json()) as { usage: { links: number } }).usage.links;
    expect(after).toBe(before + 1);
  });

  it('the printed Zapier lines (build, then invoke auth test) work against the same sandbox', () => {
    const lines = output.split('\n').map((text) => text.trim());
    const build = lines.find((text) => text.startsWith('cd packages/zapier'))!;
    const authTest = lines.find((text) => text.includes('invoke auth test'))!;
    // Typed one after the other in one shell, from the repository root, as a newcomer would.
    const result = execSync(`${build}\n${authTest}`, { cwd: repoRoot, shell: '/bin/bash', env: node24Env({ DISABLE_ZAPIER_ANALYTICS: '1' }), encoding: 'utf8', timeout: 120_000 });
    expect(result).toContain('"plan"');
    expect(result).toContain('"business"');
  });

  it('Ctrl-C stops n8n and the sandbox', async () => {
    process.kill(-playground.pid!, 'SIGINT');
    expect(await waitFor(ended, 30_000)).toBe(true);
    // The playground itself stopped cleanly; npm then ends as the signal says (exit 0 or by SIGINT).
    expect(output).toContain('Stopped.');
    expect([0, 'SIGINT']).toContain(playground.exitCode ?? playground.signalCode);
    expect(await answers(`http://127.0.0.1:${editorPort}/healthz`)).toBe(false);
    expect(await answers(`http://127.0.0.1:${sandboxPort}/api/v1/openapi.json`)).toBe(false);
  });
});
