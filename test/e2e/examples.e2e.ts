/**
 * The marketer's examples (examples/n8n/campaign-sheet.json, weekly-click-report.json, new-link-to-slack.json)
 * in a real n8n with the packed package, their Short Link nodes exactly as shipped. Their Google Sheets and
 * Slack nodes need the user's accounts, so each is replaced by a stand-in of the same name that evaluates
 * the same mapping (the columns written, the message posted) or supplies the sample rows; the rest of the
 * workflow — trigger, filters, Code, connections — is the shipped file. Each runs twice: the second run
 * must create nothing and post nothing that was posted before. The campaign sheet is also the resume
 * example: on an account whose plan runs out of links halfway, the rerun next month finishes the rest.
 * The review example (examples/n8n/campaign-sheet-review.json) previews the sheet, is approved in a Slack
 * stand-in and creates exactly what was previewed, twice; the campaign sheet with rows spelling one source
 * and campaign differently ("Newsletter", " newsletter ", "Spring Sale", "spring-sale") leaves one link.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { nodeOutput, type N8nInstance, type WorkflowJson } from '../../scripts/n8n/instance';
import { campaignSheet, recordNode, rowsNode, sampleSheet, withStandIns, type Node, type Row } from './support/stand-ins';
import { click } from '../support/clicks';
import { startOwnN8n, startRecorder, type OwnN8n, type Recorder } from './support/own-n8n';
import { waitFor } from './support/ports';

const CREDENTIAL = { id: 'slExamplesCred', name: 'Short Link examples account' };


let sandbox: Sandbox;
let own: OwnN8n;
let n8n: N8nInstance;
let recorder: Recorder<{ text: string }>;
let account: { accountId: string; apiKey: string };

beforeAll(async () => {
  recorder = await startRecorder();
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 6 } });
  account = sandbox.createAccount({ name: 'Marketing', email: 'marketing@example.com', plan: 'business' });
  own = await startOwnN8n('examples');
  n8n = own.n8n;
  await n8n.importCredential({ ...CREDENTIAL, apiKey: account.apiKey, baseUrl: sandbox.baseUrl });
}, 300_000);

afterAll(async () => {
  await own?.close();
  await sandbox?.close();
  await recorder?.close();
});

/** Runs the workflow against a sandbox through the credential pointing at it (default: the examples' account). */
async function run(workflow: WorkflowJson, on: { sandbox: Sandbox; credential: { id: string; name: string } } = { sandbox, credential: CREDENTIAL }) {
  await n8n.importWorkflows([workflow], on.credential);
  const mark = on.sandbox.requests.length;
  const result = await n8n.execute(workflow.id!);
  expect(result.run?.data.resultData.error).toBeUndefined();
  const requests = on.sandbox.requests.slice(mark).filter((request) => request.path.startsWith('/api/v1/'));
  return {
    run: result.run,
    requests,
    creates: requests.filter((request) => request.method === 'POST').length,
    quotaReads: requests.filter((request) => request.method === 'GET' && request.path === '/api/v1/me').length,
  };
}

describe('the campaign sheet example', () => {
  const sheet = campaignSheet;

  it('shortens the ten sample rows once, writes each short URL into its own row, posts only new links', async () => {
    const rows = sampleSheet();
    expect(rows).toHaveLength(10);

    const first = await run(sheet(rows));
    const links = nodeOutput(first.run, 'Find or create short link');
    expect(links.map((link) => link.created)).toEqual(rows.map(() => true));
    expect(links.map((link) => link.targetUrl)).toEqual(
      rows.map((row) => `${row.URL}?utm_source=${row.Source}&utm_medium=${row.Medium}&utm_campaign=${row.Campaign}`),
    );
    expect(first.creates).toBe(10);
    const written = nodeOutput(first.run, 'Write short URL back');
    expect(written).toEqual(rows.map((row, index) => ({ row_number: String(row.row_number), 'Short URL': links[index]!.shortUrl })));
    const posted = nodeOutput(first.run, 'Post new link to Slack').map((item) => item.text);
    expect(posted).toEqual(rows.map((row, index) => `New short link for ${row.Campaign}: ${links[index]!.shortUrl} → ${links[index]!.targetUrl}`));

    // The weekly rerun: the same links found, the same cells written, nothing created, nothing posted.
    const second = await run(sheet(rows));
    expect(second.creates).toBe(0);
    expect(nodeOutput(second.run, 'Find or create short link').map((link) => [link.id, link.created])).toEqual(links.map((link) => [link.id, false]));
    expect(nodeOutput(second.run, 'Write short URL back')).toEqual(written);
    expect(nodeOutput(second.run, 'Post new link to Slack')).toEqual([]);

    // A row added to the sheet: only its link is created and posted.
    const added = { row_number: 12, URL: 'https://example.org/summer-preview', Source: 'newsletter', Medium: 'email', Campaign: 'summer_preview', 'Short URL': '' };
    const third = await run(sheet([...rows, added]));
    expect(third.creates).toBe(1);
    const newLink = nodeOutput(third.run, 'Find or create short link')[10]!;
    expect(newLink.created).toBe(true);
    expect(nodeOutput(third.run, 'Write short URL back')[10]).toEqual({ row_number: '12', 'Short URL': newLink.shortUrl });
    expect(nodeOutput(third.run, 'Post new link to Slack').map((item) => item.text)).toEqual([
      `New short link for summer_preview: ${newLink.shortUrl} → ${newLink.targetUrl}`,
    ]);
    expect(sandbox.links(account.accountId)).toHaveLength(11);
  }, 300_000);
});

/** An account of its own on the examples' sandbox, with its credential in n8n. */
async function ownAccount(name: string): Promise<{ on: { sandbox: Sandbox; credential: { id: string; name: string } }; accountId: string }> {
  const made = sandbox.createAccount({ name, email: `${name.toLowerCase().replace(/\W+/g, '-')}@example.com`, plan: 'business' });
  const credential = { id: `sl${name.replace(/\W+/g, '')}Cred`, name: `Short Link ${name}` };
  await n8n.importCredential({ ...credential, apiKey: made.apiKey, baseUrl: sandbox.baseUrl });
  return { on: { sandbox, credential }, accountId: made.accountId };
}

describe('the campaign sheet review example (preview, approval in Slack, then exactly that)', () => {
  /** Slack's "send and wait for approval" answers as the real node does once someone clicks Approve. */
  const approvedInSlack = (node: Node): Node => ({
    name: node.name,
    type: 'n8n-nodes-base.set',
    typeVersion: 3.4,
    parameters: {
      mode: 'manual',
      assignments: {
        assignments: [
          { id: 'text', name: 'text', type: 'string', value: node.parameters.message as string },
          { id: 'approved', name: 'data.approved', type: 'boolean', value: true },
        ],
      },
      options: {},
    },
  });
  const review = (rows: Row[]) =>
    withStandIns('campaign-sheet-review.json', {
      'Read campaign sheet': (node) => rowsNode(node.name, rows),
      'Ask for approval in Slack': approvedInSlack,
      'Write short URL back': (node) => recordNode(node.name, (node.parameters.columns as { value: Record<string, string> }).value),
    });

  it('previews the ten sample rows, asks once, creates exactly them and writes each short URL into its row; the rerun asks nobody and creates nothing', async () => {
    const { on, accountId } = await ownAccount('Review');
    const rows = sampleSheet();
    const first = await run(review(rows), on);
    const [summary, ...verdicts] = nodeOutput(first.run, 'Preview the sheet');
    expect(summary).toMatchObject({ mode: 'preview', rows: 10, willCreate: 10, reviewToken: expect.stringMatching(/^slr1-10-/) });
    expect(verdicts.map((row) => row.status)).toEqual(rows.map(() => 'will create'));
    expect(nodeOutput(first.run, 'Ask for approval in Slack').map((item) => item.text)).toEqual([
      `Campaign sheet: Preview of 10 rows: 10 to create, 0 already there, 0 duplicates, 0 failing. Nothing was written. To create them, submit the same rows with this review token.\nLinks left in the plan: ${String(summary!.linksLeft)}.`,
    ]);
    const [done, ...results] = nodeOutput(first.run, 'Create the previewed links');
    expect(done).toMatchObject({ mode: 'submit', created: 10, complete: true });
    expect(first.creates).toBe(10);
    expect(results.map((row) => row.targetUrl)).toEqual(verdicts.map((row) => row.targetUrl));
    expect(nodeOutput(first.run, 'Write short URL back')).toEqual(rows.map((row, index) => ({ row_number: String(row.row_number), 'Short URL': results[index]!.shortUrl })));
    expect(sandbox.links(accountId)).toHaveLength(10);

    // The rerun: the preview finds every link, so nobody is asked in Slack again; the submit creates nothing
    // and writes the same cells.
    const second = await run(review(rows), on);
    expect(nodeOutput(second.run, 'Preview the sheet').slice(1).map((row) => [row.status, row.linkId])).toEqual(results.map((row) => ['already exists', row.linkId]));
    expect(nodeOutput(second.run, 'Ask for approval in Slack')).toEqual([]);
    expect(second.creates).toBe(0);
    expect(nodeOutput(second.run, 'Write short URL back')).toEqual(nodeOutput(first.run, 'Write short URL back'));
    expect(sandbox.links(accountId)).toHaveLength(10);
  }, 300_000);
});

describe('the campaign sheet example with one source and campaign spelt four ways', () => {
  it('leaves one link, found by every row; the rerun creates nothing and posts nothing', async () => {
    const { on, accountId } = await ownAccount('Spellings');
    const spelt = (row_number: number, Source: string, Campaign: string): Row => ({ row_number, URL: 'https://example.org/spring-sale', Source, Medium: 'Email', Campaign, 'Short URL': '' });
    const rows = [spelt(2, 'Newsletter', 'Spring Sale'), spelt(3, 'newsletter', 'spring_sale'), spelt(4, ' NEWSLETTER ', 'spring-sale'), spelt(5, 'newsLetter', 'Spring  Sale')];
    const first = await run(campaignSheet(rows), on);
    const links = nodeOutput(first.run, 'Find or create short link');
    expect(first.creates).toBe(1);
    expect(links.map((link) => link.created)).toEqual([true, false, false, false]);
    expect(new Set(links.map((link) => link.id)).size).toBe(1);
    expect(links[0]!.targetUrl).toBe('https://example.org/spring-sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale');
    expect(nodeOutput(first.run, 'Post new link to Slack')).toHaveLength(1);
    const second = await run(campaignSheet(rows), on);
    expect(second.creates).toBe(0);
    expect(nodeOutput(second.run, 'Post new link to Slack')).toEqual([]);
    expect(sandbox.links(accountId)).toHaveLength(1);
  }, 300_000);
});

describe('the weekly click report example', () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  it("writes the report week's clicks per clicked link from the Campaign Report, the same rows on a rerun, and creates nothing", async () => {
    const [popular, quiet] = sandbox.seedLinks(account.accountId, 3, { label: 'report', endAt: Date.now() - 60_000, spacingMs: 1000 });
    await click(popular!.shortUrl, 5);
    await click(quiet!.shortUrl, 2);
    // The clicks were made today: the report week is the seven days up to today instead of last Monday to Sunday.
    const [weekStart, weekEnd] = [day(-6), day(0)];
    const report = withStandIns('weekly-click-report.json', {
      'Report week': (node) => recordNode(node.name, { weekStart, weekEnd }),
      // The real node appends or updates these columns of `columns.value`, matched by Row ID.
      'Add rows to click report': (node) => recordNode(node.name, (node.parameters.columns as { value: Record<string, string> }).value),
    });

    const first = await run(report);
    // One Campaign Report over the account, for the report week (the Short Link node as shipped).
    const perLink = nodeOutput(first.run, 'Last week per link');
    expect(perLink).toHaveLength(sandbox.links(account.accountId).length);
    expect(perLink.every((row) => row.from === weekStart && row.to === weekEnd)).toBe(true);
    const rows = nodeOutput(first.run, 'Add rows to click report');
    const row = (link: typeof popular, clicks: number) => ({
      'Row ID': `${weekStart} ${link!.shortUrl}`,
      Week: `${weekStart} to ${weekEnd}`,
      'Short URL': link!.shortUrl,
      Title: link!.title,
      Campaign: '', // the seeded links' targets carry no utm_campaign
      'Target URL': link!.targetUrl,
      Clicks: String(clicks),
    });
    // The links of the sheet example and the third seeded link were not clicked: only the two clicked links get a row.
    expect(rows).toEqual(expect.arrayContaining([row(popular, 5), row(quiet, 2)]));
    expect(rows).toHaveLength(2);
    expect(first.creates).toBe(0);

    // A rerun in the same week: the same rows (the sheet updates them by Row ID), nothing created.
    const second = await run(report);
    expect(second.creates).toBe(0);
    expect(nodeOutput(second.run, 'Add rows to click report')).toEqual(rows);
  }, 300_000);
});

describe('the campaign sheet example when the plan runs out of links halfway (the resume example)', () => {
  const QUOTA_CREDENTIAL = { id: 'slQuotaCred', name: 'Short Link account with a small plan' };
  const LINKS_PER_MONTH = 6;
  // The sandbox counts a plan's links per calendar month (UTC): its clock is set to the 10th of this month,
  // then of the next, so the rerun "next month" finds the plan's links available again.
  const tenthOf = (monthsAhead: number) => {
    const today = new Date();
    return Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + monthsAhead, 10, 12);
  };
  let shiftMs = 0;
  let small: Sandbox;
  let smallAccount: { accountId: string; apiKey: string };
  const onSmall = () => ({ sandbox: small, credential: QUOTA_CREDENTIAL });

  beforeAll(async () => {
    shiftMs = tenthOf(0) - Date.now();
    small = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 6 }, now: () => Date.now() + shiftMs });
    smallAccount = small.createAccount({ name: 'Small plan', email: 'small@example.com', plan: 'business', linkQuota: LINKS_PER_MONTH });
    await n8n.importCredential({ ...QUOTA_CREDENTIAL, apiKey: smallAccount.apiKey, baseUrl: small.baseUrl });
  }, 120_000);

  afterAll(async () => {
    await small?.close();
  });

  const withId = (workflow: WorkflowJson, id: string) => ({ ...workflow, id });
  const targetOf = (row: Row) => `${row.URL}?utm_source=${row.Source}&utm_medium=${row.Medium}&utm_campaign=${row.Campaign}`;

  it('creates what fits, lists the rows left, and the rerun next month finishes them without a duplicate', async () => {
    const rows = sampleSheet();
    const [done, left] = [rows.slice(0, LINKS_PER_MONTH), rows.slice(LINKS_PER_MONTH)];
    const shipped = withId(campaignSheet(rows), 'slResumeSheet');
    const shippedNode = shipped.nodes.find((node) => node.name === 'Find or create short link')!;
    expect(shippedNode.parameters.additionalFields).toEqual({ quotaPolicy: 'createWhatFits' });

    // This month: 6 links left for 10 rows. One reading of the plan, 6 creates, 4 rows not sent.
    const first = await run(shipped, onSmall());
    expect([first.creates, first.quotaReads]).toEqual([LINKS_PER_MONTH, 1]);
    const links = nodeOutput(first.run, 'Find or create short link');
    expect(links.map((link) => [link.targetUrl, link.created])).toEqual(done.map((row) => [targetOf(row), true]));
    expect(nodeOutput(first.run, 'Write short URL back')).toEqual(done.map((row, index) => ({ row_number: String(row.row_number), 'Short URL': links[index]!.shortUrl })));
    expect(nodeOutput(first.run, 'Post new link to Slack')).toHaveLength(LINKS_PER_MONTH);
    const refused = nodeOutput(first.run, 'Find or create short link', 1);
    expect(refused.map((item) => item.row_number)).toEqual(left.map((row) => row.row_number));
    for (const item of refused) expect(item.error).toMatch(/used up after 6 created in this run; this row was not sent\. Rerun it next month/);
    expect(nodeOutput(first.run, 'Rows left for the rerun')).toEqual(
      left.map((row, index) => ({ Row: row.row_number, URL: row.URL, Campaign: row.Campaign, Why: refused[index]!.error })),
    );

    // A rerun the same month: the 6 links found again, the 4 rows still refused without being sent.
    const sameMonth = await run(shipped, onSmall());
    expect(sameMonth.creates).toBe(0);
    expect(nodeOutput(sameMonth.run, 'Find or create short link').map((link) => [link.id, link.created])).toEqual(links.map((link) => [link.id, false]));
    expect(nodeOutput(sameMonth.run, 'Rows left for the rerun').map((item) => item.Row)).toEqual(left.map((row) => row.row_number));
    expect(nodeOutput(sameMonth.run, 'Post new link to Slack')).toEqual([]);

    // Next month, with "Stop Before Creating Anything": the 6 rows with a link are found first, so its pre-flight
    // counts only the 4 rows from the first missing link on against the 6 left, and creates them.
    shiftMs = tenthOf(1) - Date.now();
    const stopping = withId(structuredClone(shipped), 'slResumeStop');
    stopping.nodes.find((node) => node.name === 'Find or create short link')!.parameters.additionalFields = { quotaPolicy: 'stopBeforeCreating' };
    const resumed = await run(stopping, onSmall());
    expect([resumed.creates, resumed.quotaReads]).toEqual([left.length, 1]);
    const all = nodeOutput(resumed.run, 'Find or create short link');
    expect(all.map((link) => [link.targetUrl, link.created])).toEqual(rows.map((row, index) => [targetOf(row), index >= LINKS_PER_MONTH]));
    expect(all.slice(0, LINKS_PER_MONTH).map((link) => link.id)).toEqual(links.map((link) => link.id));
    expect(nodeOutput(resumed.run, 'Find or create short link', 1)).toEqual([]);
    expect(nodeOutput(resumed.run, 'Rows left for the rerun')).toEqual([]);
    expect(nodeOutput(resumed.run, 'Write short URL back').map((item) => item.row_number)).toEqual(rows.map((row) => String(row.row_number)));
    expect(nodeOutput(resumed.run, 'Post new link to Slack').map((item) => item.text)).toEqual(
      left.map((row, index) => `New short link for ${row.Campaign}: ${all[LINKS_PER_MONTH + index]!.shortUrl} → ${targetOf(row)}`),
    );
    const stored = small.links(smallAccount.accountId);
    expect(stored).toHaveLength(rows.length);
    expect(new Set(stored.map((link) => link.targetUrl)).size).toBe(rows.length);

    // Once every row has its link, a rerun of the example as shipped neither creates nor reads the plan.
    const finished = await run(shipped, onSmall());
    expect([finished.creates, finished.quotaReads]).toEqual([0, 0]);
    expect(nodeOutput(finished.run, 'Rows left for the rerun')).toEqual([]);
  }, 400_000);
});

describe('the new link to Slack example', () => {
  it('posts each link created after activation once, and nothing at the next poll', async () => {
    const workflow = withStandIns('new-link-to-slack.json', {
      // The message the Slack node would post, then sent to a recorder on loopback.
      'Post to Slack': (node) => [
        { ...recordNode(node.name, { text: node.parameters.text as string }) },
        {
          name: 'Recorder',
          type: 'n8n-nodes-base.httpRequest',
          typeVersion: 4.2,
          parameters: { method: 'POST', url: recorder.url, sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: '={{ JSON.stringify($json) }}', options: {} },
        },
      ],
    });
    workflow.connections['Post to Slack'] = { main: [[{ node: 'Recorder', type: 'main', index: 0 }]] };
    await n8n.importWorkflows([workflow], CREDENTIAL);
    await n8n.activate(workflow.id!);
    const listsSince = (mark: number) => sandbox.requests.slice(mark).filter((request) => request.method === 'GET' && request.path === '/api/v1/links').length;
    const startMark = sandbox.requests.length;
    await n8n.start();
    // The activation poll only remembers where the list stands: the sheet's links are not posted.
    expect(await waitFor(() => listsSince(startMark) > 0, 90_000, 500)).toBe(true);

    const created = [];
    for (const name of ['black-friday', 'cyber-monday']) {
      const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ targetUrl: `https://example.org/${name}`, title: name }),
      });
      expect(response.status).toBe(201);
      created.push((await response.json()) as { shortUrl: string; targetUrl: string; title: string });
    }
    expect(await waitFor(() => recorder.received.length >= 2, 150_000, 1000)).toBe(true);
    // The next poll, a rerun of the trigger: nothing posted again.
    const deliveredMark = sandbox.requests.length;
    expect(await waitFor(() => listsSince(deliveredMark) > 0, 90_000, 1000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3000));

    expect(recorder.received.map((body) => body.text)).toEqual(created.map((link) => `New short link: ${link.shortUrl} → ${link.targetUrl} (${link.title})`));
    expect(n8n.output).not.toContain(account.apiKey);
  }, 400_000);
});
