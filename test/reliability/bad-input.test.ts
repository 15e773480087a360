/**
 * Bad input (issue 7, item 3): fast-check over the user-facing fields of both hosts. Ids with '/', '..',
 * '%2F', '?', '#', unicode, empty or very long; URLs relative, javascript:, with spaces, very long; dates
 * in wrong formats; odd slugs. Each call either succeeds, or fails with an error that names the field;
 * and every request the sandbox received went to the operation's own endpoint, with the id as one
 * path segment that decodes back to exactly what the user entered.
 */
import fc from 'fast-check';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';
import { locator, runNode } from '../../packages/n8n-nodes-shortlink/test/harness';
import { ZapierRunner } from './support/drivers';

// ---- generators ----

const piece = fc.constantFrom('/', '..', '.', '%2F', '%2f', '%', '?', '#', '&', '=', ' ', '\\', 'é', '😀', '\u202e', '1', 'me', 'stats', 'links', '\t');
const oddIds = fc.oneof(
  fc.constantFrom('', ' ', '.', '..', '/', '../me', '1/stats', '1?x=1', '1#frag', '%2F', '..%2Fme', '1%2F..%2F..%2Fme', 'é', '😀', '1'.repeat(3000)),
  fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const oddUrls = fc.oneof(
  fc.constantFrom(
    'example.org/page',
    '/relative/path',
    '../up',
    '//example.org/x',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<b>x</b>',
    'ftp://example.org/file',
    'https://exa mple.org/',
    'https://example.org/a b',
    ' https://example.org/padded ',
    'https://',
    'http://example.org/' + 'a'.repeat(3000),
    'https://example.org/ümlaut?q=ä#frag',
    '',
  ),
  fc.string({ maxLength: 30 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);
const oddDates = fc.oneof(
  fc.constantFrom('2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', '31/12/2026', '12/31/2026 10:00', 'tomorrow', '2026-12-31', '2026-12-31T23:59:59', '1767225599', '2026-12-31T25:00:00Z', 'T', ''),
  fc.string({ maxLength: 25 }),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const oddSlugs = fc.oneof(
  fc.constantFrom('a/b', '../me', 'a?b', 'a#b', 'ä', 'with space', '-leading', '_x', 'x'.repeat(65), '%2F', '.', '..', 'ok-slug_1'),
  fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 70 }),
);
const oddTexts = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('x'.repeat(300), '<script>x</script>', '"}{', '\u0000'));

// ---- checks ----

interface Call {
  /** Error text shown to the user: message (+ description), or undefined when the call succeeded. */
  error?: string;
  /** What the call returned when it succeeded. */
  value?: unknown;
}

const FIELD_NAMES: Record<string, RegExp> = {
  id: /\blink\b|\bid\b/i,
  link: /\blink\b|\bid\b/i,
  targetUrl: /target ?url/i,
  slug: /slug/i,
  title: /title/i,
  password: /password/i,
  expiresAt: /expires ?at|expir/i,
  domain: /domain/i,
  limit: /limit/i,
};

function expectNamesField(call: Call, field: string): void {
  if (call.error === undefined) return;
  expect(call.error).toMatch(FIELD_NAMES[field]!);
}

/** The path of a link endpoint for exactly this id (what encodeURIComponent makes of it). */
function isLinkPathFor(path: string, id: string, suffix: '' | '/stats'): boolean {
  const prefix = '/api/v1/links/';
  if (!path.startsWith(prefix) || !path.endsWith(suffix)) return false;
  const segment = path.slice(prefix.length, path.length - suffix.length);
  if (segment === '' || segment.includes('/') || /[?#]/.test(segment)) return false;
  try {
    return decodeURIComponent(segment) === id;
  } catch {
    return false;
  }
}

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});

/** Runs one host call and returns it with the requests the sandbox received meanwhile. */
async function observe(run: () => Promise<unknown>): Promise<Call & { paths: Array<{ method: string; path: string }> }> {
  const from = sandbox.requests.length;
  let error: string | undefined;
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    const e = thrown as Error & { description?: string };
    error = `${e.message} ${e.description ?? ''}`;
    expect(e).toBeInstanceOf(Error);
  }
  const paths = sandbox.requests.slice(from).map(({ method, path }) => ({ method, path }));
  // Refused before sending: the message is the client's own and must stay readable.
  if (error !== undefined && paths.length === 0) expect(error.length).toBeLessThan(1000);
  return { error, value, paths };
}

/** A created link holds the text the user entered, trimmed (the core's form reader, on both hosts). */
function expectStoredAsEntered(created: unknown, field: string, entered: unknown, trims: boolean): void {
  const id = String((created as { id?: unknown }).id);
  const stored = sandbox.links(sandbox.demoAccountId).find((link) => link.id === id) as unknown as Record<string, unknown> | undefined;
  expect(stored).toBeDefined();
  if (field !== 'title' && field !== 'slug') return;
  const text = String(entered);
  expect(stored![field]).toBe(trims ? text.trim() : text);
}

/** Requests went only to the list/create endpoint or to this id's own path. */
function expectOnlyLinkEndpoints(paths: Array<{ method: string; path: string }>, id: string | undefined, suffix: '' | '/stats' = ''): void {
  for (const { path } of paths) {
    const ok = path === '/api/v1/links' || (id !== undefined && isLinkPathFor(path, id, suffix)) || (id !== undefined && suffix === '/stats' && isLinkPathFor(path, id, ''));
    if (!ok) throw new Error(`a request reached ${path} for the id ${JSON.stringify(id)}`);
  }
}

const RUNS = 30;

// ---- n8n ----

describe('n8n node', () => {
  const run = (parameters: IDataObject) => runNode({ credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }, parameters: parameters as never });

  test.each([
    ['get', 'link', ''],
    ['update', 'link', ''],
    ['delete', 'link', ''],
    ['get', 'stats', '/stats'],
  ] as const)('%s %s: odd ids stay one encoded path segment or are refused naming the field', async (operation, resource, suffix) => {
    await fc.assert(
      fc.asyncProperty(oddIds, async (id) => {
        const extra: IDataObject = operation === 'update' ? { updateFields: { title: 'fuzz' } } : {};
        const call = await observe(() => run({ resource, operation, link: locator('id', id), ...extra }));
        // Either refused before any request, naming the field, or passed on as one encoded segment.
        if (call.paths.length === 0) expectNamesField(call, 'id');
        expectOnlyLinkEndpoints(call.paths, id.trim(), suffix);
      }),
      { numRuns: RUNS },
    );
  });

  test('get by short URL: odd short URLs never reach another endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(oddUrls, async (shortUrl) => {
        const call = await observe(() => run({ resource: 'link', operation: 'get', link: locator('url', shortUrl) }));
        expectNamesField(call, 'id');
        for (const { path } of call.paths) expect(path === '/api/v1/links' || path.startsWith('/api/v1/links/')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  const createFields = fc.oneof(
    oddUrls.map((value) => ({ field: 'targetUrl', parameters: { targetUrl: value } as IDataObject })),
    oddSlugs.map((value) => ({ field: 'slug', parameters: { additionalFields: { slug: value } } as IDataObject })),
    oddTexts.map((value) => ({ field: 'title', parameters: { additionalFields: { title: value } } as IDataObject })),
    oddTexts.map((value) => ({ field: 'password', parameters: { additionalFields: { password: value } } as IDataObject })),
    oddDates.map((value) => ({ field: 'expiresAt', parameters: { additionalFields: { expiresAt: value } } as IDataObject })),
    oddSlugs.map((value) => ({ field: 'domain', parameters: { domain: locator('hostname', value) } as IDataObject })),
    oddTexts.map((value) => ({ field: 'targetUrl', parameters: { utm: { campaign: value, source: value } } as IDataObject })),
  );

  test('create: every field fuzzed in turn', async () => {
    await fc.assert(
      fc.asyncProperty(createFields, async ({ field, parameters }) => {
        const call = await observe(() => run({ resource: 'link', operation: 'create', targetUrl: 'https://example.org/fuzz', ...parameters }));
        expectNamesField(call, field);
        if (call.error === undefined) {
          const entered = (parameters.additionalFields as IDataObject | undefined)?.[field];
          // n8n drops a blank optional field; the core's form reader trims the slug and the title, as on Zapier.
          if (entered !== undefined && String(entered).trim() !== '') expectStoredAsEntered((call.value as Array<{ json: unknown }>)[0]!.json, field, entered, true);
        }
        for (const { method, path } of call.paths) expect(`${method} ${path}`).toBe('POST /api/v1/links');
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('update: every field fuzzed in turn', async () => {
    const [target] = await run({ resource: 'link', operation: 'create', targetUrl: 'https://example.org/update-target' });
    const id = String(target!.json.id);
    const updateFields = fc.oneof(
      oddUrls.map((value) => ({ field: 'targetUrl', updateFields: { targetUrl: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'slug', updateFields: { slug: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'title', updateFields: { title: value } as IDataObject })),
      oddDates.map((value) => ({ field: 'expiresAt', updateFields: { expiresAt: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'password', updateFields: { password: value } as IDataObject })),
    );
    await fc.assert(
      fc.asyncProperty(updateFields, async ({ field, updateFields: fields }) => {
        const call = await observe(() => run({ resource: 'link', operation: 'update', link: locator('id', id), updateFields: fields }));
        // A blank text field counts as "not set": then nothing is left to update, and the node says so.
        if (call.error !== undefined && /Nothing to update/.test(call.error)) return;
        expectNamesField(call, field);
        expectOnlyLinkEndpoints(call.paths, id);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('find: odd target URLs, slugs and limits', async () => {
    const findFields = fc.oneof(
      oddUrls.map((value) => ({ field: 'targetUrl', parameters: { findBy: 'targetUrl', targetUrl: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'slug', parameters: { findBy: 'slug', slug: value } as IDataObject })),
      fc.oneof(fc.integer(), fc.double()).map((value) => ({ field: 'limit', parameters: { findBy: 'targetUrl', targetUrl: 'https://example.org/x', limit: value } as IDataObject })),
    );
    await fc.assert(
      fc.asyncProperty(findFields, async ({ field, parameters }) => {
        const call = await observe(() => run({ resource: 'link', operation: 'find', ...parameters }));
        expectNamesField(call, field);
        expectOnlyLinkEndpoints(call.paths, undefined);
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * An id longer than the service's path limit (the sandbox, like many servers, answers 414 before its
 * routes run and echoes the whole path). The core refuses ids over 256 characters before sending,
 * naming the field (input-checks.ts checkLinkId), so the user gets a short message.
 */
describe('very long ids', () => {
  const longId = '1'.repeat(5000);

  test('n8n: a 5,000-character id gives a short error naming the Link field', async () => {
    const error = (await runNode({
      credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
      parameters: { resource: 'link', operation: 'delete', link: locator('id', longId) } as never,
    }).catch((e: unknown) => e)) as Error & { description?: string };
    const text = `${error.message} ${error.description ?? ''}`;
    expect(text).toMatch(FIELD_NAMES.id!);
    expect(text.length).toBeLessThan(1000);
  });

  test('Zapier: a 5,000-character id gives a short error naming the id field', async () => {
    const zapier = new ZapierRunner();
    const error = (await zapier
      .invoke('creates.delete_link.operation.perform', { authData: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }, inputData: { link: longId } })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(FIELD_NAMES.id!);
    expect(error.message.length).toBeLessThan(1000);
  });
});

// ---- Zapier ----

describe('Zapier app', () => {
  const zapier = new ZapierRunner();
  const invoke = (method: string, inputData: IDataObject) => zapier.invoke(method, { authData: { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }, inputData });

  test.each([
    ['creates.update_link.operation.perform', ''],
    ['creates.delete_link.operation.perform', ''],
    ['searches.get_link.operation.perform', ''],
    ['searches.link_stats.operation.perform', '/stats'],
  ] as const)('%s: odd ids stay one encoded path segment or are refused naming the field', async (method, suffix) => {
    await fc.assert(
      fc.asyncProperty(oddIds, async (id) => {
        const extra: IDataObject = method.includes('update') ? { title: 'fuzz' } : {};
        const call = await observe(() => invoke(method, { link: id, ...extra }));
        if (call.paths.length === 0) expectNamesField(call, 'link');
        expectOnlyLinkEndpoints(call.paths, id.trim(), suffix);
      }),
      { numRuns: RUNS },
    );
  });

  test('create_link: every field fuzzed in turn', async () => {
    const fields = fc.oneof(
      oddUrls.map((value) => ({ field: 'targetUrl', input: { targetUrl: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'slug', input: { slug: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'title', input: { title: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'password', input: { password: value } as IDataObject })),
      oddDates.map((value) => ({ field: 'expiresAt', input: { expiresAt: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'domain', input: { domain: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'targetUrl', input: { utmSource: value, utmCampaign: value } as IDataObject })),
    );
    await fc.assert(
      fc.asyncProperty(fields, async ({ field, input }) => {
        const call = await observe(() => invoke('creates.create_link.operation.perform', { targetUrl: 'https://example.org/fuzz', ...input }));
        expectNamesField(call, field);
        if (call.error === undefined && input[field] !== undefined && String(input[field]).trim() !== '') {
          expectStoredAsEntered(call.value, field, input[field], true);
        }
        for (const { method, path } of call.paths) expect(`${method} ${path}`).toBe('POST /api/v1/links');
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('update_link: every field fuzzed in turn', async () => {
    const created = (await invoke('creates.create_link.operation.perform', { targetUrl: 'https://example.org/zap-update' })) as { id: string };
    const fields = fc.oneof(
      oddUrls.map((value) => ({ field: 'targetUrl', input: { targetUrl: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'slug', input: { slug: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'title', input: { title: value } as IDataObject })),
      oddDates.map((value) => ({ field: 'expiresAt', input: { expiresAt: value } as IDataObject })),
      oddTexts.map((value) => ({ field: 'active', input: { active: value } as IDataObject })),
    );
    await fc.assert(
      fc.asyncProperty(fields, async ({ field, input }) => {
        const call = await observe(() => invoke('creates.update_link.operation.perform', { link: created.id, ...input }));
        // A blank field counts as "not set"; with nothing set the core says which fields could be changed.
        if (call.error !== undefined && /at least one/i.test(call.error)) return;
        if (field === 'active') expect(call.error === undefined || /active/i.test(call.error)).toBe(true);
        else expectNamesField(call, field);
        expectOnlyLinkEndpoints(call.paths, created.id);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('find_link: odd target URLs, slugs and domains', async () => {
    const fields = fc.oneof(
      oddUrls.map((value) => ({ field: 'targetUrl', input: { targetUrl: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'slug', input: { slug: value } as IDataObject })),
      oddSlugs.map((value) => ({ field: 'domain', input: { slug: 'x', domain: value } as IDataObject })),
    );
    await fc.assert(
      fc.asyncProperty(fields, async ({ field, input }) => {
        const call = await observe(() => invoke('searches.find_link.operation.perform', input));
        // With every field blank the search asks for one of them, naming them all.
        if (call.error !== undefined && /Enter a "Target URL" or a "Slug"/i.test(call.error)) return;
        expectNamesField(call, field);
        // The list, and one GET of each link the search answered with (the connection's index confirms a
        // hit that way): an odd slug such as "1" can name a real link.
        const found = Array.isArray(call.value) ? (call.value as Array<{ id?: unknown }>).map((link) => String(link.id)) : [];
        for (const { path } of call.paths) {
          if (path !== '/api/v1/links' && !found.some((id) => isLinkPathFor(path, id, ''))) throw new Error(`a request reached ${path}, which is no link the search found`);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
