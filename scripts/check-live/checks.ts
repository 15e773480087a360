/**
 * The live checks: each sends real requests to the service and reports where the answers differ from
 * the OpenAPI document and the decisions of docs/api-contract.md. Read-only by default; `write` adds a
 * create/update/delete of one throwaway link (always deleted again, even when a check in between fails).
 */
import { randomBytes } from 'node:crypto';
import { compareWithDocument, type Difference, type Expectation, type LiveAnswer } from './contract';
import { readListAnswer } from '../../packages/core/src/reading/page-reader';
import { detectServiceChoices, type ChoicesInput } from './service-choices';

export interface LiveCheckOptions {
  baseUrl: string;
  apiKey: string;
  write: boolean;
  /** Per request. */
  timeoutMs?: number;
}

export interface LiveCheckReport {
  checks: string[];
  differences: Difference[];
  /** Checks that could not run (e.g. paging on an account with too few links). */
  skipped: string[];
  /** Which choice the service made where the spec is silent: one line to send back, and notes on it. */
  choices: { line: string; notes: string[] };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const INVALID_KEY = 'sl_live_check_invalid_key_000000000000000';
const UNKNOWN_ID = '999999999999';

export async function runLiveCheck(options: LiveCheckOptions): Promise<LiveCheckReport> {
  const api = `${options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
  const report: LiveCheckReport = { checks: [], differences: [], skipped: [], choices: { line: '', notes: [] } };
  /** The answer of the latest check, for the service-choices line. */
  let lastAnswer: LiveAnswer | undefined;
  const observed: Pick<ChoicesInput, 'update' | 'deleteStatus'> = {};
  const parsed = (answer: LiveAnswer | undefined): unknown => {
    try {
      return answer && answer.text !== '' ? JSON.parse(answer.text) : undefined;
    } catch {
      return answer?.text;
    }
  };
  const differ = (check: string, expected: string, actual: string) => report.differences.push({ check, expected, actual });

  async function send(method: string, path: string, init: { key?: string | null; body?: unknown } = {}): Promise<LiveAnswer | undefined> {
    const key = init.key === undefined ? options.apiKey : init.key;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await fetch(`${api}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      differ(`${method} ${path}`, 'an answer', `no answer (${cause})`);
      return undefined;
    }
  }

  /** One request compared with the document; returns the parsed body when the status was the expected one. */
  async function check(label: string, expectation: Expectation, method: string, path: string, init?: { key?: string | null; body?: unknown }): Promise<Json> {
    report.checks.push(label);
    const answer = await send(method, path, init);
    lastAnswer = answer;
    if (!answer) return undefined;
    const { differences, body } = compareWithDocument(label, expectation, answer);
    report.differences.push(...differences);
    return answer.status === expectation.status ? (body ?? null) : undefined;
  }

  function expectFieldError(label: string, body: Json, field: string): void {
    if (body === undefined) return;
    const fields = Array.isArray(body?.errors) ? body.errors.map((error: Json) => error?.field) : [];
    if (!fields.includes(field)) differ(`${label}: errors[].field`, `names ${field} (components.parameters / ValidationProblem)`, JSON.stringify(fields));
  }

  // --- read-only ---------------------------------------------------------------------------------
  const documentBody = await check('OpenAPI document without a key', { path: '/openapi.json', method: 'get', status: 200 }, 'GET', '/openapi.json', { key: null });
  let documentAnswer = lastAnswer;
  if (documentAnswer?.status !== 200) {
    // Not public: served to the key holder, maybe (the spec does not say); the choices line wants to know.
    documentAnswer = (await send('GET', '/openapi.json')) ?? documentAnswer;
  }
  if (documentBody && typeof documentBody.openapi === 'string' && !documentBody.openapi.startsWith('3.1')) {
    differ('OpenAPI document: version', '3.1.x (spec §9)', documentBody.openapi);
  }

  report.checks.push('Rate limit of 120 per minute');
  const me = await send('GET', '/me');
  if (me) {
    const { differences } = compareWithDocument('Account (GET /me)', { path: '/me', method: 'get', status: 200 }, me);
    report.differences.push(...differences);
    const limit = me.headers.get('ratelimit-limit');
    if (limit !== null && limit !== '120') differ('Rate limit: RateLimit-Limit', '120 (spec §8)', limit);
  }
  await check('No key → 401', { path: '/me', method: 'get', status: 401 }, 'GET', '/me', { key: null });
  await check('Unknown key → 401', { path: '/me', method: 'get', status: 401 }, 'GET', '/me', { key: INVALID_KEY });
  await check('Domains (GET /domains)', { path: '/domains', method: 'get', status: 200 }, 'GET', '/domains');

  const firstPage = await check('List (GET /links), default page', { path: '/links', method: 'get', status: 200 }, 'GET', '/links');
  // Read as the client reads it, so that a list in another shape still gives links to check below.
  const firstLinks: Json[] | undefined = firstPage === undefined ? undefined : readListAnswer(firstPage)?.links;
  if (firstLinks) {
    if (firstLinks.length > 20) differ('List: default page size', 'at most 20 (components.parameters.Limit)', String(firstLinks.length));
    checkNewestFirst('List', firstLinks);
  }
  const pageOne = await check('List, limit=2', { path: '/links', method: 'get', status: 200 }, 'GET', '/links?limit=2');
  const pageOneLinks: Json[] | undefined = pageOne === undefined ? undefined : readListAnswer(pageOne)?.links;
  if (pageOneLinks && pageOneLinks.length > 2) differ('List limit=2: page size', 'at most 2', String(pageOneLinks.length));
  if (pageOne?.nextCursor) {
    const pageTwo = await check('List, next page (cursor)', { path: '/links', method: 'get', status: 200 }, 'GET', `/links?limit=2&cursor=${encodeURIComponent(pageOne.nextCursor)}`);
    if (pageTwo?.data) {
      const both = [...pageOne.data, ...pageTwo.data];
      if (new Set(both.map((link: Json) => link.id)).size !== both.length) differ('List paging: overlap', 'no link on two pages (paths./links.get)', 'a link repeated');
      checkNewestFirst('List paging', both);
    }
  } else if (pageOneLinks && pageOneLinks.length >= 2) {
    report.skipped.push('paging by nextCursor (the answer names none; the service-choices line says how it pages)');
  } else if (pageOne) {
    report.skipped.push('paging (the account has fewer than 3 links)');
  }
  const tooLarge = await check('List, limit=101 → 422', { path: '/links', method: 'get', status: 422 }, 'GET', '/links?limit=101');
  expectFieldError('List, limit=101', tooLarge, 'limit');
  const badCursor = await check('List, foreign cursor → 422', { path: '/links', method: 'get', status: 422 }, 'GET', '/links?cursor=not-a-cursor-from-this-service');
  expectFieldError('List, foreign cursor', badCursor, 'cursor');

  const newest = firstLinks?.[0];
  if (newest?.id) {
    const id = encodeURIComponent(String(newest.id));
    await check('Get (GET /links/{id})', { path: '/links/{id}', method: 'get', status: 200 }, 'GET', `/links/${id}`);
    const stats = await check('Stats (GET /links/{id}/stats)', { path: '/links/{id}/stats', method: 'get', status: 200 }, 'GET', `/links/${id}/stats`);
    if (stats) checkStatsOrder(stats);
  } else {
    report.skipped.push('get and stats of a link (the account has no links)');
  }
  await check('Unknown id → 404', { path: '/links/{id}', method: 'get', status: 404 }, 'GET', `/links/${UNKNOWN_ID}`);

  // --- writes (--write) ----------------------------------------------------------------------------
  if (options.write) await writeChecks();

  // --- which choices the service made (docs/api-contract.md, "Where the service may differ") ----------
  report.choices = await detectServiceChoices({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    invalidKey: INVALID_KEY,
    document: { status: documentAnswer?.status, body: parsed(documentAnswer) },
    ...observed,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return report;

  function checkNewestFirst(label: string, links: Json[]): void {
    for (let index = 1; index < links.length; index++) {
      const [a, b] = [links[index - 1], links[index]];
      const newerFirst = a.createdAt > b.createdAt || (a.createdAt === b.createdAt && BigInt(a.id) > BigInt(b.id));
      if (!newerFirst) {
        differ(`${label}: order`, 'newest first: createdAt desc, then id desc (paths./links.get)', `${a.id} (${a.createdAt}) before ${b.id} (${b.createdAt})`);
        return;
      }
    }
  }

  function checkStatsOrder(stats: Json): void {
    const days = (stats.clicksByDay ?? []).map((day: Json) => day.date);
    if (days.join() !== [...days].sort().join()) differ('Stats: clicksByDay', 'ascending by date (paths./links/{id}/stats.get)', days.join(', '));
    for (const list of ['topCountries', 'topDevices', 'topBrowsers', 'topReferrers']) {
      const entries: Json[] = stats[list] ?? [];
      if (entries.length > 10) differ(`Stats: ${list}`, 'at most 10 entries', String(entries.length));
      const sorted = [...entries].sort((x, y) => y.clicks - x.clicks || String(x.label).localeCompare(String(y.label)));
      if (entries.map((entry) => entry.clicks).join() !== sorted.map((entry) => entry.clicks).join()) {
        differ(`Stats: ${list}`, 'sorted by clicks desc (paths./links/{id}/stats.get)', entries.map((entry) => `${entry.label}:${entry.clicks}`).join(', '));
      }
    }
  }

  async function writeChecks(): Promise<void> {
    const missing = await check('Create without targetUrl → 422', { path: '/links', method: 'post', status: 422 }, 'POST', '/links', { body: { title: 'shortlink live check' } });
    if (missing !== undefined && missing?.detail !== 'targetUrl is required.') differ('Create without targetUrl: detail', '"targetUrl is required." (spec §4, ValidationProblem)', JSON.stringify(missing?.detail));
    expectFieldError('Create without targetUrl', missing, 'targetUrl');

    const targetUrl = `https://example.org/shortlink-live-check/${randomBytes(6).toString('hex')}`;
    const created = await check('Create (POST /links) → 201', { path: '/links', method: 'post', status: 201 }, 'POST', '/links', {
      body: { targetUrl, title: 'shortlink live check (throwaway, deleted at once)' },
    });
    if (!created?.id) return;
    const id = encodeURIComponent(String(created.id));
    let deleted = false;
    try {
      if (created.targetUrl !== targetUrl) differ('Create: targetUrl', targetUrl, String(created.targetUrl));
      const read = await check('Get the new link', { path: '/links/{id}', method: 'get', status: 200 }, 'GET', `/links/${id}`);
      if (read) {
        const fresh = { active: true, blocked: false, hasPassword: false, clicks: 0, expiresAt: null };
        for (const [field, value] of Object.entries(fresh)) {
          if (read[field] !== value) differ(`New link: ${field}`, `${JSON.stringify(value)} (spec §3)`, JSON.stringify(read[field]));
        }
      }
      const updated = await check('Update (PATCH /links/{id})', { path: '/links/{id}', method: 'patch', status: 200 }, 'PATCH', `/links/${id}`, {
        body: { title: 'shortlink live check (updated)' },
      });
      if (lastAnswer && lastAnswer.status < 300) observed.update = { status: lastAnswer.status, body: parsed(lastAnswer) };
      if (updated && updated.title !== 'shortlink live check (updated)') differ('Update: title', '"shortlink live check (updated)"', JSON.stringify(updated.title));
      deleted = (await check('Delete (DELETE /links/{id}) → 204', { path: '/links/{id}', method: 'delete', status: 204 }, 'DELETE', `/links/${id}`)) !== undefined;
      if (lastAnswer && lastAnswer.status < 300) {
        observed.deleteStatus = lastAnswer.status;
        deleted = true;
      }
      await check('Get after delete → 404', { path: '/links/{id}', method: 'get', status: 404 }, 'GET', `/links/${id}`);
    } finally {
      if (!deleted) {
        const answer = await send('DELETE', `/links/${id}`);
        if (!answer || answer.status >= 300) differ('Cleanup', `throwaway link ${created.id} deleted`, `not deleted (${answer?.status ?? 'no answer'}): delete it by hand`);
      }
    }
  }
}
