/**
 * The Short Link Trigger with a backlog, in a real n8n (the packed tarball as a community package): an
 * account holds 1 000 links created since a date; the trigger starts from that date ("Links Created Since
 * a Date", wall time in the workflow's time zone) with 400 links per poll. The activation poll and the
 * next two (n8n polls once a minute at most) deliver all 1 000, each once, oldest first, 400 + 400 + 200;
 * one more poll delivers nothing. The workflow hands each execution's links, in order, to a recorder on
 * loopback (Aggregate → HTTP Request), so the test sees exactly what n8n ran.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { N8nInstance, WorkflowJson } from '../../scripts/n8n/instance';
import { startOwnN8n, startRecorder, type OwnN8n, type Recorder } from './support/own-n8n';
import { waitFor } from './support/ports';

const CREDENTIAL = { id: 'slBacklogCred', name: 'Short Link backlog account' };
const TIME_ZONE = 'Europe/Berlin';
const BACKLOG = 1000;
const PER_POLL = 400;

interface Delivery {
  execution: string;
  ids: string[];
  createdAt: string[];
}

let sandbox: Sandbox;
let own: OwnN8n;
let n8n: N8nInstance;
let recorder: Recorder<Delivery>;
let deliveries: Delivery[];

/** The wall time of an instant in a time zone, as n8n's date picker stores it (no zone). */
function wallTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

function backlogWorkflow(since: string): WorkflowJson {
  return {
    id: 'slBacklogTrig',
    name: 'Short Link: a backlog since a date',
    nodes: [
      {
        id: '00000000-0000-4000-8000-0000000000b1',
        name: 'New short link',
        type: 'n8n-nodes-shortlink.shortLinkTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {
          pollTimes: { item: [{ mode: 'everyMinute' }] },
          event: 'newLink',
          startFrom: 'since',
          since,
          options: { maxLinks: PER_POLL },
        },
        credentials: { shortLinkApi: CREDENTIAL },
      },
      {
        id: '00000000-0000-4000-8000-0000000000b2',
        name: 'Links of this run',
        type: 'n8n-nodes-base.aggregate',
        typeVersion: 1,
        position: [220, 0],
        parameters: {
          aggregate: 'aggregateIndividualFields',
          fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'id' }, { fieldToAggregate: 'createdAt' }] },
          options: {},
        },
      },
      {
        id: '00000000-0000-4000-8000-0000000000b3',
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
          jsonBody: '={{ JSON.stringify({ execution: $execution.id, ids: $json.id, createdAt: $json.createdAt }) }}',
          options: {},
        },
      },
    ],
    connections: {
      'New short link': { main: [[{ node: 'Links of this run', type: 'main', index: 0 }]] },
      'Links of this run': { main: [[{ node: 'Record', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1', timezone: TIME_ZONE },
    pinData: {},
  };
}

beforeAll(async () => {
  recorder = await startRecorder<Delivery>();
  deliveries = recorder.received;
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 60 } });
  own = await startOwnN8n('backlog');
  n8n = own.n8n;
}, 300_000);

afterAll(async () => {
  await own?.close();
  await sandbox?.close();
  await recorder?.close();
});

it('a backlog of 1 000 links since a date reaches the workflow once each, oldest first, 400 per poll', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'Backlog', email: 'backlog@example.com', plan: 'business' });
  const now = Date.now();
  // Older links, then the backlog, created between "since" and now.
  sandbox.seedLinks(accountId, 20, { label: 'before', endAt: now - 2 * 3600_000, spacingMs: 1000 });
  const backlog = sandbox.seedLinks(accountId, BACKLOG, { label: 'backlog', endAt: now - 60_000, spacingMs: 50 }).map((link) => link.id);
  const since = wallTime(now - 3600_000, TIME_ZONE);

  await n8n.importCredential({ ...CREDENTIAL, apiKey, baseUrl: sandbox.baseUrl });
  await n8n.importWorkflows([backlogWorkflow(since)], CREDENTIAL);
  await n8n.activate('slBacklogTrig');
  const startMark = sandbox.requests.length;
  await n8n.start();

  // The activation poll and then one poll a minute: 400, 400 and 200 links.
  const delivered = () => deliveries.flatMap((delivery) => delivery.ids).length;
  expect(await waitFor(() => delivered() >= BACKLOG, 240_000, 1000)).toBe(true);
  // One more poll after the last batch must deliver nothing again.
  const doneMark = sandbox.requests.length;
  expect(await waitFor(() => sandbox.requests.slice(doneMark).some((r) => r.path === '/api/v1/links'), 90_000, 1000)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 3000));

  const ids = deliveries.flatMap((delivery) => delivery.ids.map(String));
  expect(ids).toHaveLength(BACKLOG);
  expect(new Set(ids).size).toBe(BACKLOG);
  expect(ids).toEqual(backlog); // every link once, oldest first, across the polls
  expect(deliveries.map((delivery) => delivery.ids.length)).toEqual([400, 400, 200]);
  expect(new Set(deliveries.map((delivery) => delivery.execution)).size).toBe(3);
  // The links from before the date never came; the key never showed in n8n's output.
  const listRequests = sandbox.requests.slice(startMark).filter((r) => r.path === '/api/v1/links').length;
  expect(listRequests).toBeLessThanOrEqual(2 * Math.ceil(BACKLOG / 100) + 8);
  expect(n8n.output).not.toContain(apiKey);
}, 420_000);
