/**
 * Find or Create Many (issue 37) against the sandbox over real HTTP: the preview's verdicts row by row and
 * what it costs, the run that does what was previewed, its refusals, and a rerun that finishes a stopped
 * run. The property test over random sheets is test/reliability/sheet.property.test.ts.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { afterCreates } from '../../../../test/support/after-creates';
import { createClient, InputError } from '@shortlink/core';
import { operationByKey, runOperation, ONE_PAGE_FORMS, type OperationContext, type OperationResult } from '@shortlink/core/operations';
import { inputSchemaOf } from '@shortlink/core/host';

const many = operationByKey('link.findOrCreateMany');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

function account(name: string, linkQuota?: number) {
  const made = sandbox.createAccount({ name, email: `${name}@example.org`, plan: 'business', ...(linkQuota === undefined ? {} : { linkQuota }) });
  const client = () => createClient({ baseUrl: sandbox.baseUrl, apiKey: made.apiKey });
  const requests = () => sandbox.requests.length;
  return { ...made, client, requests, links: () => sandbox.links(made.accountId) };
}

const run = (client: ReturnType<typeof createClient>, values: Record<string, unknown>, context: OperationContext = {}): Promise<OperationResult> => runOperation(many, client, values, context);

test('preview: will create, already exists with its link, duplicates after normalising, and failures with their reasons; nothing written', async () => {
  const a = account('preview');
  const existing = await a.client().createLink({ targetUrl: 'https://example.org/known', slug: 'known' });
  await a.client().createLink({ targetUrl: 'https://example.org/other', slug: 'taken' });
  const rows = [
    { targetUrl: 'https://example.org/spring', utmSource: 'Newsletter', utmCampaign: 'Spring Sale' },
    { targetUrl: 'example.org/spring', utmSource: ' newsletter', utmCampaign: 'spring-sale' },
    { targetUrl: 'https://example.org/known' },
    { targetUrl: 'not a url' },
    { targetUrl: 'https://example.org/new', slug: 'taken' },
    { targetUrl: 'https://example.org/a', slug: 'mine' },
    { targetUrl: 'https://example.org/b', slug: 'mine' },
    { targetUrl: 'https://example.org/c', domain: 'go.unknown.example' },
  ];
  const before = a.links().length;
  const result = await run(a.client(), { mode: 'preview', rows });
  expect(a.links()).toHaveLength(before);
  expect(result.records.map((r) => [r.row, r.status, r.sameAsRow])).toEqual([
    [1, 'will create', null],
    [2, 'duplicate', 1],
    [3, 'already exists', null],
    [4, 'will fail', null],
    [5, 'will fail', null],
    [6, 'will create', null],
    [7, 'will fail', null],
    [8, 'will fail', null],
  ]);
  expect(result.records[0]).toMatchObject({ targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_campaign=spring_sale', shortUrl: '', reason: '' });
  expect(result.records[2]).toMatchObject({ linkId: existing.id, shortUrl: existing.shortUrl });
  expect(result.records[3]!.reason).toMatch(/^Target URL must be an absolute http\(s\) URL/);
  expect(result.records[4]!.reason).toBe(`The slug "taken" is taken on the default domain by link ${a.links().find((l) => l.slug === 'taken')!.id} (to https://example.org/other). Choose another slug, or leave it empty.`);
  expect(result.records[6]!.reason).toMatch(/The slug "mine" is used by row 6 for another link/);
  expect(result.records[7]!.reason).toMatch(/The domain go\.unknown\.example is not a verified custom domain of this account/);
  expect(result.summary).toMatchObject({ mode: 'preview', rows: 8, willCreate: 2, alreadyExist: 1, duplicates: 1, willFail: 4, linksLeft: expect.any(Number) });
  expect(String(result.summary!.reviewToken)).toMatch(/^slr1-8-[0-9a-z]+-2\.1\.1\.4-[0-9a-f]{16}-[0-9a-f]{16}$/);
});

test('submit does what the preview said, row by row, and a second submit creates nothing', async () => {
  const a = account('submit');
  await a.client().createLink({ targetUrl: 'https://example.org/known' });
  const rows = [
    { targetUrl: 'https://example.org/x', utmSource: 'Newsletter', title: '=HYPERLINK("http://evil","x")' },
    { targetUrl: 'https://example.org/x', utmSource: 'newsletter' },
    { targetUrl: 'https://example.org/known' },
    { targetUrl: 'https://example.org/y', slug: 'y-slug' },
    { targetUrl: 'ftp://example.org/z' },
  ];
  const preview = await run(a.client(), { mode: 'preview', rows });
  const reviewToken = preview.summary!.reviewToken;
  const before = a.links().length;
  const submitted = await run(a.client(), { mode: 'submit', rows, reviewToken });
  expect(a.links()).toHaveLength(before + 2);
  const pairs = { 'will create': 'created', 'already exists': 'already exists', duplicate: 'duplicate', 'will fail': 'failed' } as Record<string, string>;
  expect(submitted.records.map((r) => r.status)).toEqual(preview.records.map((r) => pairs[r.status as string]));
  expect(submitted.records[1]!.linkId).toBe(submitted.records[0]!.linkId);
  expect(submitted.records[0]).toMatchObject({ title: '=HYPERLINK("http://evil","x")', targetUrl: 'https://example.org/x?utm_source=newsletter' });
  expect(submitted.summary).toMatchObject({ mode: 'submit', created: 2, alreadyExist: 1, duplicates: 1, failed: 1, notDone: 0, complete: true });

  // The same token again: the two links made are "created by an earlier run"; nothing new is made.
  const again = await run(a.client(), { mode: 'submit', rows, reviewToken });
  expect(a.links()).toHaveLength(before + 2);
  expect(again.records.map((r) => [r.status, r.linkId])).toEqual(submitted.records.map((r) => [r.status, r.linkId]));
  expect(again.records[0]!.reason).toBe('Created by an earlier run of this preview.');
});

test('submit refuses changed rows, an account that changed, and a missing or unreadable token, before creating anything', async () => {
  const a = account('refuse');
  const rows = [{ targetUrl: 'https://example.org/one', slug: 'one' }, { targetUrl: 'https://example.org/two' }];
  const { summary } = await run(a.client(), { mode: 'preview', rows });
  const reviewToken = summary!.reviewToken;
  const refused = async (values: Record<string, unknown>) => {
    const before = a.links().length;
    const error = await run(a.client(), values).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect(a.links()).toHaveLength(before);
    return (error as InputError).message;
  };
  expect(await refused({ mode: 'submit', rows: [...rows, { targetUrl: 'https://example.org/three' }], reviewToken })).toBe(
    'These rows are not the ones previewed with this "Review Token", so nothing was created. The preview had 2 rows; these are 3. Preview the rows as they are now and submit them with the new review token.',
  );
  expect(await refused({ mode: 'submit', rows: [rows[0], { targetUrl: 'https://example.org/2' }], reviewToken })).toMatch(/A URL, UTM value, domain, slug or title, or an option, differs from the preview/);
  expect(await refused({ mode: 'submit', rows })).toMatch(/"Review Token" is required to submit/);
  expect(await refused({ mode: 'submit', rows, reviewToken: 'abc' })).toMatch(/"Review Token" is not a review token of a preview/);
  // Someone takes the slug after the preview: the verdicts differ, so nothing is created.
  await a.client().createLink({ targetUrl: 'https://example.org/elsewhere', slug: 'one' });
  expect(await refused({ mode: 'submit', rows, reviewToken })).toBe(
    'The account changed since the preview, so nothing was created: the preview showed 2 to create, 0 already there, 0 duplicates, 0 failing; now the rows give 1 to create, 0 already there, 0 duplicates, 1 failing (a link made, changed or deleted, a slug taken, or the plan\'s links left). Preview the rows again and submit them with the new review token.',
  );
});

test('the plan\'s links left: rows beyond them fail in the preview, are not sent, and the rest is created', async () => {
  const a = account('quota', 3);
  const rows = Array.from({ length: 5 }, (_, i) => ({ targetUrl: `https://example.org/q${i}` }));
  const preview = await run(a.client(), { mode: 'preview', rows });
  expect(preview.records.map((r) => r.status)).toEqual(['will create', 'will create', 'will create', 'will fail', 'will fail']);
  expect(preview.records[3]!.reason).toMatch(/^Over the plan's links left: 3 left this month/);
  const posts = () => sandbox.requests.filter((r) => r.method === 'POST').length;
  const before = posts();
  const submitted = await run(a.client(), { mode: 'submit', rows, reviewToken: preview.summary!.reviewToken });
  expect(posts() - before).toBe(3);
  expect(submitted.records.map((r) => r.status)).toEqual(['created', 'created', 'created', 'failed', 'failed']);
});

test('a run stopped part way (its time ran out) finishes on the next submit with the same token; nothing twice', async () => {
  const a = account('resume');
  const rows = Array.from({ length: 6 }, (_, i) => ({ targetUrl: `https://example.org/r${i}`, utmCampaign: 'Resume' }));
  const preview = await run(a.client(), { mode: 'preview', rows });
  const reviewToken = preview.summary!.reviewToken;
  // A clock that jumps past the run's end after the second create.
  let clock = Date.now();
  const counting = afterCreates(a.client(), (creates) => {
    if (creates === 1) clock += 60_000;
  });
  const first = await runOperation(many, counting, { mode: 'submit', rows, reviewToken }, { now: () => clock, deadlineAt: clock + 30_000 });
  // Three creates are under way at once (rows of different targets): the clock jumps as the first ends, the
  // three started before it finish, no other row starts.
  expect(first.records.map((r) => r.status)).toEqual(['created', 'created', 'created', 'not done yet', 'not done yet', 'not done yet']);
  expect(first.summary).toMatchObject({ complete: false, notDone: 3 });
  expect(first.records[3]!.reason).toMatch(/Run again with the same review token to finish/);
  const second = await run(a.client(), { mode: 'submit', rows, reviewToken });
  expect(second.records.map((r) => r.status)).toEqual(Array(6).fill('created'));
  expect(second.records.slice(0, 3).map((r) => r.linkId)).toEqual(first.records.slice(0, 3).map((r) => r.linkId));
  expect(a.links()).toHaveLength(6);
  // With a step's hard time limit (Zapier), the unfinished run is an error the host retries.
  const b = account('resume-step');
  const stepPreview = await run(b.client(), { mode: 'preview', rows });
  let stepClock = Date.now();
  // The step's time is over as its first create ends: the three under way finish, no row starts after.
  const slow = afterCreates(b.client(), (creates) => {
    if (creates === 1) stepClock += 30_000;
  });
  await expect(runOperation(many, slow, { mode: 'submit', rows, reviewToken: stepPreview.summary!.reviewToken }, { now: () => stepClock, timeLimitMs: 25_000 })).rejects.toThrow(
    /^3 of the 6 rows were done before the step's time ran out \(3 links created\)\. Running the step again with the same rows and review token goes on from there/,
  );
});

test('the preview reads the account once: one walk, the plan, no more, however many rows', async () => {
  const a = account('cost');
  sandbox.seedLinks(a.accountId, 250, { label: 'cost' });
  const rows = Array.from({ length: 300 }, (_, i) => ({ targetUrl: `https://example.org/cost/${i}`, utmSource: i % 2 ? 'Newsletter' : 'newsletter' }));
  const before = a.requests();
  const result = await run(a.client(), { mode: 'preview', rows });
  expect(result.summary).toMatchObject({ willCreate: 300 });
  // Three list pages of 100 (250 links) and GET /me.
  expect(a.requests() - before).toBe(3 + 1);
});

test('progress is told row by row; rows over the limit and rows that are not records are refused by name', async () => {
  const a = account('progress');
  const heard: number[] = [];
  await run(a.client(), { mode: 'preview', rows: [{ targetUrl: 'https://example.org/p1' }, { targetUrl: 'https://example.org/p2' }] }, { onProgress: (p) => heard.push(p.done) });
  expect(heard).toEqual([1, 2]);
  const agents = ONE_PAGE_FORMS['link.findOrCreateMany']!;
  const tooMany = Array.from({ length: 501 }, (_, i) => ({ targetUrl: `https://example.org/${i}` }));
  await expect(runOperation(agents, a.client(), { mode: 'preview', rows: tooMany })).rejects.toThrow('"Rows" takes at most 500 rows at a time; got 501. Split the rows into several runs.');
  await expect(run(a.client(), { mode: 'preview', rows: ['https://example.org'] })).rejects.toThrow(/"Rows" row 1 must be a record of columns/);
  expect(inputSchemaOf(agents.fields).properties.rows).toMatchObject({ type: 'array', maxItems: 500, items: { type: 'object', required: ['targetUrl'] } });
});

test('UTM presets and allowed values from the connection apply to every row; a value outside the list fails its row in words', async () => {
  const a = account('presets');
  const utmPresets = 'Newsletter: source=newsletter, medium=email\nallowed medium: email, cpc, qr';
  const rows = [
    { targetUrl: 'https://example.org/n', utmPreset: 'newsletter', utmCampaign: 'Winter' },
    { targetUrl: 'https://example.org/n', utmSource: 'NewsLetter', utmMedium: 'e-mail', utmCampaign: 'winter' },
    { targetUrl: 'https://example.org/n', utmMedium: 'print' },
  ];
  const result = await run(a.client(), { mode: 'preview', rows }, { utmPresets });
  expect(result.records.map((r) => r.status)).toEqual(['will create', 'duplicate', 'will fail']);
  expect(result.records[0]!.targetUrl).toBe('https://example.org/n?utm_source=newsletter&utm_medium=email&utm_campaign=winter');
  expect(result.records[2]!.reason).toMatch(/^"UTM Medium" is "print", which is not an allowed medium\. Allowed: email, cpc, qr/);
});
