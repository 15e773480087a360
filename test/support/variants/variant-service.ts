/**
 * A stand-in of the service that made other spec-legal choices than this project's document: a small
 * server in front of a sandbox that speaks the sandbox's API in another dialect, one switch per choice
 * (docs/api-contract.md, "Where the service may differ"). With no switch set it passes everything through,
 * so the baseline row of the variant table is the project's own document. The sandbox itself stays as it
 * is; only the answers (and the list's parameter names) change on the way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from '../hostile-servers';

export type PagingChoice =
  /** `{ data, nextCursor }` (the project's document). */
  | 'document'
  /** `{ data, cursor: { next } }`. */
  | 'nested-cursor'
  /** `{ data, links: { self, next: "http://…/api/v1/links?…" } }`. */
  | 'next-url'
  /** A bare array and `Link: </api/v1/links?…>; rel="next", <…>; rel="first"`. */
  | 'link-header'
  /** `{ object: 'list', data, has_more }`, the next page by `starting_after=<last id>` (Stripe). */
  | 'has-more'
  /** A bare array and nothing else: no way to tell the last page. */
  | 'no-continuation'
  /** Like next-url, but the next page lies on another host. */
  | 'foreign-next-url';

export interface VariantChoices {
  paging?: PagingChoice;
  /** The query parameter the service reads the cursor from (others are ignored: the first page again). */
  cursorParameter?: string;
  /** The query parameter the service reads the page size from (others are ignored: 20 a page). */
  pageSizeParameter?: string;
  /** Largest page; above it a 422. */
  maxPageSize?: number;
  /** Whether that 422's detail names the maximum. */
  pageSizeRefusal?: 'names-maximum' | 'vague';
  /** /api/v1/openapi.json: the service's own document (its parameter names and maximum), or 404. */
  openApi?: 'served' | 'absent';
  /** PATCH answer: the whole link, only the changed fields, or 204. */
  update?: 'full' | 'partial' | 'empty';
  /** DELETE answer status (200 with a small body, 202 or 204 empty). */
  deleteStatus?: 200 | 202 | 204;
  /** Where a domain record keeps its hostname. */
  domainHostnameField?: 'hostname' | 'domain' | 'name';
  /** GET /me: the document's record, wrapped in `data`, or with other field names. */
  account?: 'document' | 'wrapped' | 'renamed';
  /** Status for a key the service does not know. */
  wrongKeyStatus?: 401 | 403;
  /** Status for a plan without API access. */
  planStatus?: 402 | 403;
}

export interface VariantService {
  baseUrl: string;
  /** Every request that reached the stand-in. */
  calls: TestServer['calls'];
  close(): Promise<void>;
}

const DEFAULT_PAGE_SIZE = 20;
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

type Json = Record<string, unknown>;

function problemBody(status: number, title: string, detail: string, extra: Json = {}): Json {
  return { type: 'about:blank', title, status, detail, ...extra };
}

/** The sandbox's cursor for "after this link" (its keyset: createdAt and id), as the sandbox encodes it. */
function sandboxCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id]), 'utf8').toString('base64url');
}

/**
 * Starts the stand-in in front of `sandboxUrl` (the sandbox's base URL). `foreignOrigin` is where the
 * foreign-next-url choice points its next-page links.
 */
export async function startVariantService(sandboxUrl: string, choices: VariantChoices, foreignOrigin = 'http://127.0.0.1:9'): Promise<VariantService> {
  const paging = choices.paging ?? 'document';
  const cursorName = choices.cursorParameter ?? (paging === 'has-more' ? 'starting_after' : 'cursor');
  const sizeName = choices.pageSizeParameter ?? 'limit';
  const maxPageSize = choices.maxPageSize ?? 100;
  let origin = '';

  async function upstream(method: string, path: string, request: IncomingMessage, body?: string): Promise<{ status: number; headers: Headers; text: string }> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
    }
    const response = await fetch(`${sandboxUrl}${path}`, { method, headers, body: body === '' ? undefined : body, redirect: 'manual' });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, upstreamHeaders?: Headers): void {
    const out: Record<string, string> = {};
    upstreamHeaders?.forEach((value, name) => {
      if (/^(ratelimit-|retry-after|date)/i.test(name)) out[name] = value;
    });
    Object.assign(out, headers);
    if (body === undefined) {
      response.writeHead(status, out);
      response.end();
      return;
    }
    const problem = status >= 400;
    response.writeHead(status, { 'content-type': problem ? 'application/problem+json' : 'application/json', ...out });
    response.end(JSON.stringify(body));
  }

  /** An upstream answer passed on, with the status and error choices applied to it. */
  function relay(response: ServerResponse, answer: { status: number; headers: Headers; text: string }): void {
    let status = answer.status;
    let body: unknown = answer.text === '' ? undefined : JSON.parse(answer.text);
    const kind = typeof (body as Json | undefined)?.type === 'string' ? String((body as Json).type).split('#')[1] : undefined;
    if (status === 401 && choices.wrongKeyStatus === 403 && kind === 'unauthorized') {
      status = 403;
      body = problemBody(403, 'Forbidden', 'Invalid API key.');
    }
    if (status === 403 && choices.planStatus === 402 && kind === 'plan-required') {
      status = 402;
      body = problemBody(402, 'Payment Required', 'Your subscription does not include API access.');
    }
    send(response, status, body, {}, answer.headers);
  }

  function listUrl(query: Record<string, string>): string {
    return `/api/v1/links?${new URLSearchParams(query).toString()}`;
  }

  async function list(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const sizeText = url.searchParams.get(sizeName);
    const size = sizeText === null ? DEFAULT_PAGE_SIZE : Number(sizeText);
    if (!Number.isInteger(size) || size < 1 || size > maxPageSize) {
      const message = choices.pageSizeRefusal === 'vague' ? `${sizeName} is out of range.` : `${sizeName} must be at most ${maxPageSize}.`;
      send(response, 422, problemBody(422, 'Unprocessable Entity', message, { errors: [{ field: sizeName, message }] }));
      return;
    }
    let cursor = url.searchParams.get(cursorName) ?? undefined;
    if (paging === 'has-more' && cursor !== undefined) {
      const link = await upstream('GET', `/api/v1/links/${encodeURIComponent(cursor)}`, request);
      if (link.status !== 200) return relay(response, link);
      const { createdAt, id } = JSON.parse(link.text) as { createdAt: string; id: string };
      cursor = sandboxCursor(createdAt, id);
    }
    const answer = await upstream('GET', listUrl(cursor === undefined ? { limit: String(size) } : { limit: String(size), cursor }), request);
    if (answer.status !== 200) return relay(response, answer);
    const { data, nextCursor } = JSON.parse(answer.text) as { data: Json[]; nextCursor: string | null };
    const nextQuery = nextCursor === null ? undefined : { [sizeName]: String(size), [cursorName]: nextCursor };
    const headers: Record<string, string> = {};
    let body: unknown;
    switch (paging) {
      case 'document':
        body = { data, nextCursor };
        break;
      case 'nested-cursor':
        body = { data, cursor: { next: nextCursor } };
        break;
      case 'next-url':
      case 'foreign-next-url': {
        const base = paging === 'next-url' ? origin : foreignOrigin;
        body = { data, links: { self: `${origin}${url.pathname}${url.search}`, next: nextQuery ? `${base}${listUrl(nextQuery)}` : null } };
        break;
      }
      case 'link-header': {
        const first = `<${listUrl({ [sizeName]: String(size) })}>; rel="first"`;
        headers.link = nextQuery ? `<${listUrl(nextQuery)}>; rel="next", ${first}` : first;
        body = data;
        break;
      }
      case 'has-more':
        body = { object: 'list', url: '/api/v1/links', data, has_more: nextCursor !== null };
        break;
      case 'no-continuation':
        body = data;
        break;
    }
    send(response, 200, body, headers, answer.headers);
  }

  async function document(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (choices.openApi === 'absent') {
      send(response, 404, problemBody(404, 'Not Found', 'No such resource.'));
      return;
    }
    const answer = await upstream('GET', '/api/v1/openapi.json', request);
    const served = JSON.parse(answer.text) as Json & { components: { parameters: Record<string, Json & { schema: Json }> } };
    const { Limit, Cursor } = served.components.parameters;
    Limit!.name = sizeName;
    Limit!.schema = { ...Limit!.schema, maximum: maxPageSize };
    Cursor!.name = cursorName;
    // The document names another server: a client must keep sending to the base URL its user entered.
    served.servers = [{ url: `${foreignOrigin}/api/v1` }];
    send(response, 200, served, {}, answer.headers);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const path = url.pathname;
    if (method === 'GET' && path === '/api/v1/openapi.json') return document(request, response);
    if (method === 'GET' && path === '/api/v1/links') return list(request, response, url);
    const answer = await upstream(method, `${path}${url.search}`, request, body);
    if (answer.status >= 300) return relay(response, answer);
    if (method === 'PATCH' && /^\/api\/v1\/links\/[^/]+$/.test(path)) {
      if (choices.update === 'empty') return send(response, 204, undefined, {}, answer.headers);
      if (choices.update === 'partial') {
        const link = JSON.parse(answer.text) as Json;
        const sent = JSON.parse(body) as Json;
        const changed = Object.fromEntries(Object.keys(sent).filter((key) => key in link).map((key) => [key, link[key]]));
        return send(response, 200, { id: link.id, ...changed }, {}, answer.headers);
      }
    }
    if (method === 'DELETE' && choices.deleteStatus !== undefined && choices.deleteStatus !== 204) {
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      return send(response, choices.deleteStatus, choices.deleteStatus === 200 ? { id, deleted: true } : undefined, {}, answer.headers);
    }
    if (method === 'GET' && path === '/api/v1/domains' && (choices.domainHostnameField ?? 'hostname') !== 'hostname') {
      const { data } = JSON.parse(answer.text) as { data: Json[] };
      const field = choices.domainHostnameField!;
      const renamed = data.map(({ hostname, ...rest }) => ({ ...rest, [field]: hostname }));
      return send(response, 200, { data: renamed }, {}, answer.headers);
    }
    if (method === 'GET' && path === '/api/v1/me' && (choices.account ?? 'document') !== 'document') {
      const account = JSON.parse(answer.text) as Json;
      if (choices.account === 'wrapped') return send(response, 200, { data: account }, {}, answer.headers);
      const { name, email, ...rest } = account;
      return send(response, 200, { ...rest, displayName: name, emailAddress: email }, {}, answer.headers);
    }
    relay(response, answer);
  }

  const server = await startServer((request, response, call) => {
    handle(request, response, call.body).catch((error: Error) => {
      if (!response.headersSent) send(response, 500, problemBody(500, 'Stand-in failed', error.message));
      else response.end();
    });
  });
  origin = server.origin;
  return { baseUrl: server.origin, calls: server.calls, close: () => server.close() };
}
