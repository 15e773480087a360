/**
 * Two callers, one target, in a real n8n (issue 26; docs/guarantees.md, "The create rule"): two executions
 * of one workflow create a link for the same target URL at the same moment, and the first create's answer is
 * lost after the service stored it (a gateway's 502). Before issue 26 both executions could be told the same
 * id. Now each is told its own link, or the one whose answer was lost says the outcome is unknown and how to
 * check; never one id for both, never a third link. Each execution posts what it was told to a recorder.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { N8nInstance, WorkflowJson } from '../../scripts/n8n/instance';
import { startOwnN8n, startRecorder, type OwnN8n, type Recorder } from './support/own-n8n';

const CREDENTIAL = { id: 'slTwoCallersCred', name: 'Short Link two callers' };
const OWNER = { email: 'owner@example.com', password: 'E2e-owner-1', firstName: 'E2e', lastName: 'Owner' };
const TARGET = 'https://example.org/two-callers/spring';

interface Told {
  execution: string;
  id?: string;
  error?: string;
}

let sandbox: Sandbox;
let own: OwnN8n;
let n8n: N8nInstance;
let recorder: Recorder<Told>;

function createWorkflow(): WorkflowJson {
  return {
    id: 'slTwoCallers',
    name: 'Short Link: create one link',
    nodes: [
      { id: '00000000-0000-4000-8000-0000000000e1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      {
        id: '00000000-0000-4000-8000-0000000000e2',
        name: 'Shorten',
        type: 'n8n-nodes-shortlink.shortLink',
        typeVersion: 1,
        position: [220, 0],
        parameters: { resource: 'link', operation: 'create', targetUrl: TARGET, additionalFields: { title: 'Spring' } },
        credentials: { shortLinkApi: CREDENTIAL },
        onError: 'continueRegularOutput',
      },
      {
        id: '00000000-0000-4000-8000-0000000000e3',
        name: 'Record',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [440, 0],
        parameters: {
          method: 'POST',
          url: recorder.url,
          sendBody: true,
          contentType: 'json',
          specifyBody: 'json',
          jsonBody: '={{ JSON.stringify({ execution: $execution.id, id: $json.id, error: $json.error ? [$json.error, $json.description].join(" ") : undefined }) }}',
          options: {},
        },
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Shorten', type: 'main', index: 0 }]] },
      Shorten: { main: [[{ node: 'Record', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

beforeAll(async () => {
  recorder = await startRecorder<Told>();
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 60 } });
  own = await startOwnN8n('two-callers');
  n8n = own.n8n;
}, 300_000);

afterAll(async () => {
  await own?.close();
  await sandbox?.close();
  await recorder?.close();
});

it('two executions create the same target while the first answer is lost: never one id for both, never a third link', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'Two callers', email: 'two@example.com', plan: 'business' });
  sandbox.seedLinks(accountId, 50, { label: 'older', endAt: Date.now() - 3_600_000, spacingMs: 1000 });
  await n8n.importCredential({ ...CREDENTIAL, apiKey, baseUrl: sandbox.baseUrl });
  await n8n.importWorkflows([createWorkflow()], CREDENTIAL);
  await n8n.start();
  await n8n.setupOwner(OWNER);
  const cookie = await n8n.login(OWNER.email, OWNER.password);

  // The first create to arrive is stored and its answer replaced by a gateway's 502; the second is answered.
  sandbox.setFaults({ createFaults: ['serverError'] });
  const first = await n8n.startInEditor(cookie, 'slTwoCallers', 'Start');
  const second = await n8n.startInEditor(cookie, 'slTwoCallers', 'Start');
  expect(await n8n.waitForExecution(cookie, first)).toBe('success');
  expect(await n8n.waitForExecution(cookie, second)).toBe('success');

  const told = recorder.received;
  expect(told).toHaveLength(2);
  const stored = sandbox.links(accountId).filter((link) => link.targetUrl === TARGET);
  expect(stored).toHaveLength(2);
  const ids = told.flatMap((entry) => (entry.id === undefined ? [] : [String(entry.id)]));
  // Never one id for both; every id told is a stored link.
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(stored.map((link) => link.id)).toContain(id);
  // The one not told an id was told that the outcome is unknown, and how to check.
  for (const entry of told.filter((entry) => entry.id === undefined)) {
    expect(entry.error).toMatch(/The link may have been created, and .*Look it up by its target URL \(Find\)/);
  }
  expect(ids.length).toBeGreaterThanOrEqual(1);
}, 400_000);
