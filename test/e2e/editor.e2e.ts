/**
 * The Short Link node as users meet it: n8n's real editor (the packed tarball installed as a community
 * package, started as `npm start` starts it, through scripts/n8n/instance.ts) driven in Chromium by
 * playwright-core. It logs in, adds the node from the nodes panel, fills Create (credential, Target URL, a
 * domain from the list, UTM parameters, an expiry from the date picker), executes the step and reads the
 * output table; makes an item fail under "On Error: Continue" and reads the explanation in the output
 * panel; shows Update's UTM hint; and tests a credential with a wrong key in the credential dialog.
 *
 * Every step leaves a screenshot in test/e2e/artifacts/editor/ (git-ignored) for a reviewer to look at.
 * Needs Chromium (Debian's `chromium`, /usr/bin/chromium; `.ci/run` installs it): without it the suite
 * fails at once saying so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { N8nInstance } from '../../scripts/n8n/instance';
import { ensureN8nRuntime, repoRoot } from '../../scripts/n8n/runtime';
import { launchBrowser, missingBrowser, screenshotFolder, type Browser } from './support/browser';
import { freePort } from './support/ports';

export const SCREENSHOTS = join(repoRoot, 'test', 'e2e', 'artifacts', 'editor');
const OWNER = { email: 'owner@example.com', password: 'Editor-test-1', firstName: 'Editor', lastName: 'Test' };
const CREDENTIAL = { id: 'slEditorSandbox', name: 'Short Link sandbox' };
// +05:30 all year (no daylight saving): the picker's midnight is 18:30 UTC of the day before, whatever the season.
const TIME_ZONE = 'Asia/Kolkata';
const ZONE_OFFSET_MS = 5.5 * 3_600_000;
// The core's link record (packages/core/src/operations/link-record.ts): the short URL first.
const LINK_COLUMNS = ['shortUrl', 'id', 'targetUrl', 'title', 'slug', 'domain', 'clicks', 'active', 'blocked', 'hasPassword', 'expiresAt', 'createdAt'];

let sandbox: Sandbox;
let n8n: N8nInstance;
let userFolder: string;
let browser: Browser;
let page: Page;
const shot = screenshotFolder(SCREENSHOTS);

beforeAll(async () => {
  // Say what is missing before minutes go into n8n.
  const missing = missingBrowser();
  if (missing) throw new Error(missing);
  const tarball = process.env.SHORTLINK_E2E_TARBALL;
  if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');

  const runtime = await ensureN8nRuntime();
  sandbox = await startSandbox();
  userFolder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-editor-'));
  n8n = new N8nInstance({ runtime, userFolder, port: await freePort(), brokerPort: await freePort(), timezone: TIME_ZONE });
  // As `npm start` prepares its editor: the package, the sandbox credential, the editor, the owner.
  await n8n.installCommunityPackage(tarball);
  await n8n.importCredential({ ...CREDENTIAL, apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
  await n8n.start();
  await n8n.setupOwnerOnce(OWNER);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(30_000);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await n8n?.stop();
  await sandbox?.close();
  if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

/** The node's parameter or collection whose label is `label` (top level of the parameters panel). */
function parameter(label: string): Locator {
  return page.locator('[data-test-id=parameter-item]').filter({ has: page.locator('[data-test-id=input-label]', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });
}

/** Adds the option `option` to the collection labelled `collection` ("Add Field" and its dropdown). */
async function addToCollection(collection: string, option: string): Promise<void> {
  // A click on the label first: a focused field's tip would cover the add button.
  await page.getByText(collection, { exact: true }).click();
  await parameter(collection).locator('[data-test-id=collection-parameter-add]').click();
  await page.locator('[data-test-id=collection-parameter-option]:visible', { hasText: new RegExp(`^${option}$`) }).click();
}

/** The output panel's table: header cells and rows of cell texts. */
async function outputTable(): Promise<{ columns: string[]; rows: string[][] }> {
  const table = page.locator('[data-test-id=output-panel] table');
  await table.waitFor();
  return await table.evaluate((element) => ({
    columns: [...element.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '').filter((text) => text !== ''),
    rows: [...element.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim() ?? '')),
  }));
}

async function executeStep(): Promise<void> {
  await page.click('[data-test-id=node-execute-button]');
  await page.getByText('Node executed successfully').first().waitFor();
}

/** The service's own answer to a request, straight from the sandbox. */
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.baseUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A test of one step: on failure the page as it was goes next to the other screenshots. */
function step(name: string, run: () => Promise<void>, timeoutMs?: number): void {
  it(
    name,
    async () => {
      try {
        await run();
      } catch (error) {
        await shot(page, `failed-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`).catch(() => undefined);
        throw error;
      }
    },
    timeoutMs,
  );
}

describe('the Short Link node in n8n\'s editor (Chromium)', () => {
  let createdId: string;

  step('logs in', async () => {
    await page.goto(`${n8n.editorUrl}/signin`);
    await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
    await page.fill('input[name=password]', OWNER.password);
    await shot(page, '01-sign-in');
    await page.click('[data-test-id=form-submit-button]');
    await page.waitForURL(/\/home\//);
  });

  step('adds the Short Link node from the nodes panel: Link → Create', async () => {
    await page.goto(`${n8n.editorUrl}/workflow/new`);
    await page.click('[data-test-id=canvas-add-button]');
    await page.fill('[data-test-id=node-creator-search-bar]', 'Short Link');
    await page.locator('[data-test-id=node-creator-item-name]', { hasText: /^Short Link$/ }).click();
    // The node's details list its trigger and, folded or not, its actions.
    const create = page.getByText('Create a link', { exact: true });
    const actions = page.getByText(/^Actions \(\d+\)$/);
    await actions.waitFor();
    if (!(await create.isVisible())) await actions.click();
    await create.waitFor();
    await shot(page, '02-nodes-panel-actions');
    await page.getByText('Create a link', { exact: true }).click();
    await page.locator('[data-test-id=ndv]').waitFor();
    await expect(page.locator('[data-test-id=parameter-input-operation] input').inputValue()).resolves.toBe('Create');
    // The Docs link opens the user guide as it is.
    const docs = await page.locator('[data-test-id=ndv] a', { hasText: 'Docs' }).getAttribute('href');
    expect(docs).toBe('https://github.com/shortlink-integrations/shortlink-integrations/blob/main/docs/n8n.md');
    await shot(page, '03-create-form');
  });

  step('fills Create: credential, Target URL, a domain from the list, UTM parameters and an expiry from the date picker', async () => {
    await page.click('[data-test-id=node-credentials-select]');
    await page.click(`[data-test-id=node-credentials-select-item-${CREDENTIAL.id}]`);
    await expect(page.locator('[data-test-id=node-credentials-select] input').inputValue()).resolves.toBe(CREDENTIAL.name);
    await page.fill('[data-test-id=parameter-input-targetUrl] input', 'https://example.org/winter-sale');

    await page.click('[data-test-id=resource-locator-domain] [data-test-id=rlc-input]');
    await page.locator('[data-test-id=rlc-item]', { hasText: 'go.example.org' }).waitFor();
    await shot(page, '04-domain-from-list');
    await page.locator('[data-test-id=rlc-item]', { hasText: 'go.example.org' }).click();

    await addToCollection('UTM Parameters', 'Source');
    await page.fill('[data-test-id=parameter-input-source] input', 'newsletter');
    await addToCollection('UTM Parameters', 'Medium');
    await page.fill('[data-test-id=parameter-input-medium] input', 'email');
    await addToCollection('UTM Parameters', 'Campaign');
    await page.fill('[data-test-id=parameter-input-campaign] input', 'winter_sale');

    await addToCollection('Additional Fields', 'Expires At');
    await page.click('[data-test-id=parameter-input-expiresAt] input');
    const picker = page.locator('.el-picker-panel:visible');
    await picker.locator('button[aria-label="Next Year"]').click();
    await picker.locator('td.available:not(.prev-month):not(.next-month)', { hasText: /^\s*15\s*$/ }).click();
    await shot(page, '05-date-picker');
    await picker.getByRole('button', { name: 'OK' }).click();
    await picker.waitFor({ state: 'hidden' });
    // The picker stores wall time without a zone.
    await expect(page.locator('[data-test-id=parameter-input-expiresAt] input').inputValue()).resolves.toMatch(/^\d{4}-\d\d-15 00:00:00$/);
    await page.getByText('Additional Fields', { exact: true }).click();
    await shot(page, '06-create-filled');
  });

  step('executes the step: the output table shows the twelve fields of the new link, the expiry read in the workflow time zone', async () => {
    const wallTime = await page.locator('[data-test-id=parameter-input-expiresAt] input').inputValue();
    await executeStep();
    await shot(page, '07-create-output-table');

    const { columns, rows } = await outputTable();
    expect(columns).toEqual(LINK_COLUMNS);
    expect(rows).toHaveLength(1);
    const cell = Object.fromEntries(columns.map((column, index) => [column, rows[0]![index]]));
    const [year, month] = wallTime.split('-').map(Number) as [number, number];
    const expiresAt = new Date(Date.UTC(year, month - 1, 15) - ZONE_OFFSET_MS).toISOString();
    expect(cell).toMatchObject({
      targetUrl: 'https://example.org/winter-sale?utm_source=newsletter&utm_medium=email&utm_campaign=winter_sale',
      domain: 'go.example.org',
      active: 'true',
      blocked: 'false',
      hasPassword: 'false',
      clicks: '0',
      expiresAt,
    });
    expect(cell.shortUrl).toBe(`https://go.example.org/${cell.slug}`);
    createdId = cell.id!;
    // All twelve at a glance for the reviewer: the JSON view of the same output.
    await page.locator('[data-test-id=output-panel] [data-test-id=radio-button-json]').click();
    await page.locator('[data-test-id=output-panel]').getByText('hasPassword').first().waitFor();
    await page.waitForTimeout(500);
    await shot(page, '07b-create-output-json');
    await page.locator('[data-test-id=output-panel] [data-test-id=radio-button-table]').click();
    // What the service stored is what the table shows.
    expect((await api('GET', `/links/${createdId}`)).body).toMatchObject({ expiresAt, domain: 'go.example.org', targetUrl: cell.targetUrl });
  });

  step('On Error → Continue: a failing item shows the whole explanation in the output panel', async () => {
    // The service's own words for a slug taken on that domain (the seeded link "docs").
    const taken = await api('POST', '/links', { targetUrl: 'https://example.org/other', slug: 'docs', domain: 'go.example.org' });
    expect(taken.status).toBe(409);

    await page.click('[data-test-id=tab-settings]');
    await page.click('[data-test-id=parameter-input-onError]');
    await page.locator('.el-select-dropdown__item:visible', { hasText: /^Continue\s*Pass error message as item in regular output/ }).click();
    await page.locator('.el-select-dropdown__item', { hasText: /^Continue \(using error output\)/ }).waitFor({ state: 'hidden' });
    await shot(page, '08-settings-on-error-continue');
    await page.click('[data-test-id=tab-params]');
    await addToCollection('Additional Fields', 'Slug');
    await page.fill('[data-test-id=parameter-input-slug] input', 'docs');
    await page.getByText('Additional Fields', { exact: true }).click();
    await executeStep();
    await page.locator('[data-test-id=output-panel]').getByText('HTTP 409').first().waitFor();
    await shot(page, '09-failed-item-explained');

    const { columns, rows } = await outputTable();
    expect(columns).toEqual(['error', 'details']);
    expect(rows[0]![0]).toBe(`${String(taken.body.title)} (HTTP 409): ${String(taken.body.detail)}`);
    // details: message, description, httpCode and the form field, as the next node gets them
    for (const part of [`message:${String(taken.body.title)}`, `description:${String(taken.body.detail)}`, 'httpCode:409', 'field:Slug']) {
      expect(rows[0]![1]!.replace(/\s*:\s*/g, ':')).toContain(part);
    }
  });

  step('Update: the UTM hint shows under each UTM field', async () => {
    await page.click('[data-test-id=parameter-input-operation]');
    await page.locator('.el-select-dropdown__item:visible', { hasText: /^Update/ }).click();
    await parameter('UTM Parameters').waitFor();
    const hints = parameter('UTM Parameters').getByText("Added to the new target URL, or to the link's current one", { exact: true });
    // The three UTM fields filled above stay (the same parameter in Update): each shows the hint.
    await expect(hints.count()).resolves.toBe(3);
    await expect(hints.first().isVisible()).resolves.toBe(true);
    await shot(page, '10-update-utm-hint');
  });

  step('the credential dialog with a wrong key shows the node\'s own words', async () => {
    const before = sandbox.requests.length;
    await page.click('[data-test-id=node-credentials-select]');
    await page.click('[data-test-id=node-credentials-select-item-new]');
    const dialog = page.locator('[data-test-id=editCredential-modal]');
    await dialog.waitFor();
    const fields = dialog.locator('[data-test-id=credential-connection-parameter] input');
    await fields.nth(0).fill('wrong-key-typed-in-the-browser');
    await fields.nth(1).fill(sandbox.baseUrl);
    // Leave the field, so that the dialog takes the value, before saving.
    await fields.nth(1).press('Tab');
    // Saving tests the credential (n8n runs the node's credentialTest) and shows the outcome in the dialog.
    await page.click('[data-test-id=credential-save-button]');
    await dialog.getByText('Couldn’t connect with these settings').waitFor({ timeout: 60_000 });
    await dialog.getByText('More details', { exact: true }).click();
    // The node's own words for a refused key, with the way out (reconnect with a new key).
    await dialog.getByText(/^The API key is invalid or revoked\. Check the API key of the credential/).waitFor();
    await shot(page, '11-credential-wrong-key');
    // The test asked the service (GET /me with the wrong key), and the key is not on the screen.
    expect(sandbox.requests.slice(before).some((request) => request.path === '/api/v1/me')).toBe(true);
    expect(await dialog.textContent()).not.toContain('wrong-key-typed-in-the-browser');
  });
});
