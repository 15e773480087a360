/**
 * The Short Link Trigger's Link Clicks event in a real n8n (the packed tarball as a community package),
 * with real clicks on the sandbox's redirect endpoint: a published workflow watches the links of the last
 * 30 days for the milestones 2 and 5. The activation poll only takes the counts; clicks made after it
 * reach the workflow as one item per link and milestone — two milestones passed between two polls come at
 * once, a link older than the window never comes, a milestone never comes twice (a later poll with more
 * clicks delivers only the milestone not yet passed). Each execution's items go to a recorder on loopback
 * (Aggregate → HTTP Request), so the test sees exactly what n8n ran.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { N8nInstance, WorkflowJson } from '../../scripts/n8n/instance';
import { click } from '../support/clicks';
import { startOwnN8n, startRecorder, type OwnN8n, type Recorder } from './support/own-n8n';
import { waitFor } from './support/ports';

const CREDENTIAL = { id: 'slClicksCred', name: 'Short Link clicks account' };
const DAY_MS = 86_400_000;

interface Delivery {
  execution: string;
  ids: string[];
  milestones: number[];
  clicks: number[];
  clicksBefore: number[];
}

let sandbox: Sandbox;
let own: OwnN8n;
let n8n: N8nInstance;
let recorder: Recorder<Delivery>;
let deliveries: Delivery[];

function clicksWorkflow(): WorkflowJson {
  return {
    id: 'slClicksTrig',
    name: 'Short Link: click milestones',
    nodes: [
      {
        id: '00000000-0000-4000-8000-0000000000c1',
        name: 'Link clicks',
        type: 'n8n-nodes-shortlink.shortLinkTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {
          pollTimes: { item: [{ mode: 'everyMinute' }] },
          event: 'linkClicks',
          clicksMode: 'milestones',
          milestones: '2, 5',
          clicksScope: 'recent',
          createdWithinDays: 30,
        },
        credentials: { shortLinkApi: CREDENTIAL },
      },
      {
        id: '00000000-0000-4000-8000-0000000000c2',
        name: 'Events of this run',
        type: 'n8n-nodes-base.aggregate',
        typeVersion: 1,
        position: [220, 0],
        parameters: {
          aggregate: 'aggregateIndividualFields',
          fieldsToAggregate: {
            fieldToAggregate: [
              { fieldToAggregate: 'id' },
              { fieldToAggregate: 'milestone' },
              { fieldToAggregate: 'clicks' },
              { fieldToAggregate: 'clicksBefore' },
            ],
          },
          options: {},
        },
      },
      {
        id: '00000000-0000-4000-8000-0000000000c3',
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
          jsonBody:
            '={{ JSON.stringify({ execution: $execution.id, ids: $json.id, milestones: $json.milestone, clicks: $json.clicks, clicksBefore: $json.clicksBefore }) }}',
          options: {},
        },
      },
    ],
    connections: {
      'Link clicks': { main: [[{ node: 'Events of this run', type: 'main', index: 0 }]] },
      'Events of this run': { main: [[{ node: 'Record', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

beforeAll(async () => {
  recorder = await startRecorder<Delivery>();
  deliveries = recorder.received;
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 60 } });
  own = await startOwnN8n('clicks');
  n8n = own.n8n;
}, 300_000);

afterAll(async () => {
  await own?.close();
  await sandbox?.close();
  await recorder?.close();
});

it('click milestones reach the workflow once per link and milestone, two at once when passed between polls, none for an older link', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'Clicks', email: 'clicks@example.com', plan: 'business' });
  const now = Date.now();
  const [old] = sandbox.seedLinks(accountId, 1, { label: 'old', endAt: now - 40 * DAY_MS, spacingMs: 1000 });
  const [a, b, c] = sandbox.seedLinks(accountId, 3, { label: 'recent', endAt: now - 60_000, spacingMs: 1000 });
  await click(a!.shortUrl, 1); // counted before activation: taken as it is

  await n8n.importCredential({ ...CREDENTIAL, apiKey, baseUrl: sandbox.baseUrl });
  await n8n.importWorkflows([clicksWorkflow()], CREDENTIAL);
  await n8n.activate('slClicksTrig');
  const listRequests = (from: number) => sandbox.requests.slice(from).filter((r) => r.path === '/api/v1/links').length;
  const startMark = sandbox.requests.length;
  await n8n.start();
  // The activation poll reads the counts and delivers nothing.
  expect(await waitFor(() => listRequests(startMark) > 0, 90_000, 500)).toBe(true);

  await click(a!.shortUrl, 1); // 2: milestone 2
  await click(b!.shortUrl, 6); // 6: milestones 2 and 5 at once
  await click(old!.shortUrl, 9); // outside the 30 days: never watched
  expect(await waitFor(() => deliveries.length >= 1, 150_000, 1000)).toBe(true);

  await click(a!.shortUrl, 3); // 5: only milestone 5 is new for a
  await click(b!.shortUrl, 4); // 10: nothing new for b
  expect(await waitFor(() => deliveries.length >= 2, 150_000, 1000)).toBe(true);
  // One more poll without clicks delivers nothing.
  const quietMark = sandbox.requests.length;
  expect(await waitFor(() => listRequests(quietMark) > 0, 90_000, 1000)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 3000));

  const events = deliveries.map((delivery) =>
    delivery.ids.map((id, index) => `${id}@${delivery.milestones[index]}:${delivery.clicksBefore[index]}→${delivery.clicks[index]}`).sort(),
  );
  expect(events).toEqual([
    [`${a!.id}@2:1→2`, `${b!.id}@2:0→6`, `${b!.id}@5:0→6`].sort(),
    [`${a!.id}@5:2→5`],
  ]);
  expect(new Set(deliveries.map((delivery) => delivery.execution)).size).toBe(2);
  expect(deliveries.flatMap((delivery) => delivery.ids)).not.toContain(c!.id);
  expect(deliveries.flatMap((delivery) => delivery.ids)).not.toContain(old!.id);
  expect(n8n.output).not.toContain(apiKey);
}, 480_000);
