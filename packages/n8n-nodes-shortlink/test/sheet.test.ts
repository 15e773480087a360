/**
 * Issue 37 through the built node against the sandbox: Find or Create's Review Step (all items as one
 * sheet: Preview, then Submit with the review token), the UTM presets kept in the credential, and
 * sheet-safe values — a report row, a preview row and a trigger item whose text starts with "=", "+", "-"
 * or "@" reach the next node (Google Sheets' Append) as text, the stored value under `raw`.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';
import { click } from '../../../test/support/clicks';

import { runNode, triggerHost, type TestCredentials } from './harness';

let sandbox: Sandbox;
let credentials: TestCredentials;
let accountId: string;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
	const made = sandbox.createAccount({ name: 'n8n sheet', email: 'n8n-sheet@example.org', plan: 'business' });
	accountId = made.accountId;
	credentials = { apiKey: made.apiKey, baseUrl: sandbox.baseUrl, utmPresets: 'Newsletter: source=newsletter, medium=email\nallowed medium: email, cpc, qr' };
});

afterAll(async () => {
	await sandbox.close();
});

const sheet = [
	{ url: 'https://example.org/spring', preset: 'Newsletter', campaign: 'Spring Sale', title: 'Spring' },
	{ url: 'example.org/spring', preset: '', source: 'NewsLetter', medium: 'e-mail', campaign: 'spring_sale', title: 'Spring' },
	{ url: 'https://example.org/summer', preset: '', source: 'facebook', medium: 'print', campaign: 'summer', title: 'Summer' },
	{ url: 'https://example.org/autumn', preset: 'Newsletter', campaign: 'autumn', title: '=HYPERLINK("http://evil.example","x")' },
];

/** Find or Create with the Review Step over the sheet's items, each item's columns mapped as expressions would. */
const findOrCreate = (reviewStep: string, reviewToken = '') => (i: number) => ({
	resource: 'link',
	operation: 'findOrCreate',
	reviewStep,
	reviewToken,
	targetUrl: sheet[i]!.url,
	utm: { preset: sheet[i]!.preset, source: sheet[i]!.source ?? '', medium: sheet[i]!.medium ?? '', campaign: sheet[i]!.campaign },
	additionalFields: { title: sheet[i]!.title },
});

it('Preview: one summary item for all items, then one item per row paired with its item; nothing is created', async () => {
	const output = await runNode({ credentials, items: sheet, parameters: findOrCreate('preview') });
	expect(sandbox.links(accountId)).toHaveLength(0);
	expect(output).toHaveLength(1 + sheet.length);
	expect(output[0]!.json).toMatchObject({ mode: 'preview', rows: 4, willCreate: 2, duplicates: 1, willFail: 1, reviewToken: expect.stringMatching(/^slr1-4-/) });
	expect(output[0]!.pairedItem).toEqual(sheet.map((_, item) => ({ item })));
	expect(output.slice(1).map((item) => item.pairedItem)).toEqual(sheet.map((_, item) => ({ item })));
	expect(output.slice(1).map((item) => [item.json.row, item.json.status, item.json.sameAsRow])).toEqual([
		[1, 'will create', null],
		[2, 'duplicate', 1],
		[3, 'will fail', null],
		[4, 'will create', null],
	]);
	// The preset from the credential, normalised; a medium outside the credential's allowed list fails its row.
	expect(output[1]!.json.targetUrl).toBe('https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale');
	expect(output[3]!.json.reason).toMatch(/^"UTM Medium" is "print", which is not an allowed medium\. Allowed: email, cpc, qr/);
	// Sheet-safe: the title reaches the sheet as text; the value as typed is under raw.
	expect(output[4]!.json).toMatchObject({ title: '\'=HYPERLINK("http://evil.example","x")', raw: { title: '=HYPERLINK("http://evil.example","x")' } });
});

it('Submit with the review token creates what was previewed; changed items are refused by name, nothing created', async () => {
	const preview = await runNode({ credentials, items: sheet, parameters: findOrCreate('preview') });
	const token = String(preview[0]!.json.reviewToken);
	const changed = sheet.map((row, i) => (i === 0 ? { ...row, title: 'Spring!' } : row));
	await expect(runNode({ credentials, items: changed, parameters: (i) => ({ ...findOrCreate('submit', token)(i), additionalFields: { title: changed[i]!.title } }) })).rejects.toThrow(
		/These rows are not the ones previewed with this "Review Token", so nothing was created/,
	);
	expect(sandbox.links(accountId)).toHaveLength(0);

	const output = await runNode({ credentials, items: sheet, parameters: findOrCreate('submit', token) });
	expect(output[0]!.json).toMatchObject({ mode: 'submit', created: 2, duplicates: 1, failed: 1, complete: true });
	expect(output.slice(1).map((item) => item.json.status)).toEqual(['created', 'duplicate', 'failed', 'created']);
	expect(output[2]!.json.linkId).toBe(output[1]!.json.linkId);
	expect(sandbox.links(accountId)).toHaveLength(2);
	// Continue On Fail: a refusal is one error item for the whole sheet, paired with every item.
	const refused = await runNode({ credentials, items: sheet, continueOnFail: true, parameters: findOrCreate('submit', 'slr1-nonsense') });
	expect(refused).toHaveLength(1);
	expect(refused[0]!.json.error).toMatch(/"Review Token" is not a review token of a preview/);
	expect(refused[0]!.pairedItem).toEqual(sheet.map((_, item) => ({ item })));
});

it('a report row and a trigger item whose text starts with "=", "+", "-" or "@" reach the sheet step as text', async () => {
	const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: credentials.apiKey });
	const titles = ['=SUM(A1:A9)', '+cmd', '-50% sale', '@import'];
	const host = triggerHost(credentials);
	expect(await host.poll()).toBeNull();
	const made = [];
	for (const [i, title] of titles.entries()) made.push(await client.createLink({ targetUrl: `https://example.org/safe/${i}?utm_campaign=safe`, title }));
	for (const link of made) await click(link.shortUrl, 1);
	const rows = await runNode({ credentials, parameters: { resource: 'report', operation: 'campaign', selectBy: 'campaign', campaign: 'safe', shape: 'linkTotal', from: '2026-01-01', to: new Date().toISOString().slice(0, 10) } });
	expect(rows.map((item) => [item.json.title, (item.json.raw as { title?: string } | undefined)?.title])).toEqual(expect.arrayContaining(titles.map((title) => [`'${title}`, title])));
	const polled = await host.poll();
	expect(polled?.map((item) => [item.title, (item.raw as { title?: string }).title])).toEqual(titles.map((title) => [`'${title}`, title]));
	// A title that runs as nothing stays as it is, with no raw copy.
	const plain = await runNode({ credentials, parameters: { resource: 'link', operation: 'create', targetUrl: 'https://example.org/plain', additionalFields: { title: 'Plain 50%' } } });
	expect(plain[0]!.json.title).toBe('Plain 50%');
	expect(plain[0]!.json.raw).toBeUndefined();
});
