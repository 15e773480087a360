/**
 * The API under /api/v1: rate limiting, faults and authentication as hooks, then the eight
 * operations of the document plus the document itself. Bodies and queries are validated by the
 * document's own schemas; every answer (errors included) carries the RateLimit-* headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fieldErrors, openApiJson, queryValidator, validatorAt } from './contract';
import type { SandboxContext } from './context';
import { decodeCursor, encodeCursor } from './cursor';
import type { AfterFault, FaultDecision } from './faults';
import { CursorCycle, CYCLE_CURSORS, isCycleCursor, writeRateLimitHeaders } from './quirks';
import { ApiProblem, problems } from './problems';
import { sha256Hex } from './secrets';
import { computeStats } from './stats';
import { API_PLANS, type CreateLinkInput, type UpdateLinkInput } from './store';
import type { AccountRecord, Link } from './types';

export const API_PREFIX = '/api/v1';
const OPENAPI_ROUTE = `${API_PREFIX}/openapi.json`;

const CREATED_FIELDS = ['id', 'slug', 'shortUrl', 'targetUrl', 'title', 'domain', 'active', 'clicks', 'createdAt'] as const;

/** Pointer to an operation's JSON request body schema in the document. */
function requestBodyPointer(path: string, method: string): string {
  return `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/application~1json/schema`;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Only POST and PATCH take a body; one sent with GET or DELETE is ignored, as the document declares no 400 there. */
const takesBody = (request: FastifyRequest) => request.method === 'POST' || request.method === 'PATCH';

function parseJsonBody(request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) {
  const text = body.toString();
  if (text.trim() === '' || !takesBody(request)) return done(null, undefined);
  try {
    done(null, JSON.parse(text));
  } catch {
    done(problems.malformed('The request body is not valid JSON.'));
  }
}

export async function apiRoutes(app: FastifyInstance, options: { context: SandboxContext }): Promise<void> {
  const { store, limiter, faults, now } = options.context;
  const context = options.context;
  const accounts = new WeakMap<FastifyRequest, AccountRecord>();
  const cycle = new CursorCycle();
  const faulted = new WeakSet<FastifyRequest>();
  /** Scripted creates (FaultOptions.createFaults): the fault each suffers, before or after its write. */
  const scripted = new WeakMap<FastifyRequest, FaultDecision>();
  const isCreate = (request: FastifyRequest) => request.method === 'POST' && request.url.split('?')[0] === `${API_PREFIX}/links`;

  /** A create's answer was lost: the second caller (ServiceQuirks.secondCaller), if any, creates the same link later. */
  const scheduleSecondCaller = (request: FastifyRequest) => {
    const second = context.quirks.secondCaller;
    const account = accounts.get(request);
    if (!second || !account || !isCreate(request) || request.body === undefined) return;
    const body = { ...(request.body as Record<string, unknown>) };
    if (second.omitSlug) delete body.slug;
    context.pendingSecondCalls.push({ at: now() + second.delayMs, accountId: account.id, body });
    if (second.delayMs <= 0) runDueSecondCalls();
  };
  const runDueSecondCalls = () => {
    const due = context.pendingSecondCalls.filter((call) => call.at <= now());
    context.pendingSecondCalls = context.pendingSecondCalls.filter((call) => call.at > now());
    for (const call of due) {
      try {
        context.secondCallerLinks.push(store.toLink(store.createLink(call.accountId, call.body as CreateLinkInput), context.baseUrl));
      } catch {
        // Refused (e.g. the slug is taken): that caller was told so and holds no link.
      }
    }
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (body.toString().trim() === '' || !takesBody(request)) return done(null, undefined);
    done(problems.malformed('The request body must be JSON, sent with Content-Type: application/json.'));
  });

  app.addHook('onRequest', async (request, reply) => {
    runDueSecondCalls();
    const isDocument = request.url.split('?')[0] === OPENAPI_ROUTE;
    const token = bearerToken(request);
    const account = token === undefined ? undefined : store.accountForKey(token);
    // Known keys have their own bucket; everything else shares one per client address.
    const bucket = account && token ? `key:${sha256Hex(token)}` : `client:${request.ip}`;
    const decision = limiter.hit(bucket);
    writeRateLimitHeaders(reply, decision, options.context.quirks, now());
    if (!decision.allowed) {
      throw problems.rateLimited(decision.limit, limiter.settings.windowSeconds, decision.resetSeconds);
    }

    if (!isDocument) {
      if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
      const fault = faults.before(isCreate(request));
      if (fault.kind === 'scripted') {
        // Applied once the body is read (preHandler, onSend), so that the second caller knows what was sent.
        scripted.set(request, fault);
        return authenticate(request, token, account);
      }
      if (fault.kind !== 'none') faulted.add(request);
      if (fault.kind === 'resetBefore') {
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (fault.kind === 'rateLimitStorm') {
        const retryAfter = Math.max(1, decision.resetSeconds);
        reply.header('Retry-After', retryAfter);
        throw problems.rateLimited(decision.limit, limiter.settings.windowSeconds, retryAfter);
      }
      if (fault.kind === 'serverError') {
        throw fault.status === 500 ? problems.internal() : fault.status === 502 ? problems.badGateway() : problems.unavailable();
      }

      authenticate(request, token, account);
    }
  });

  function authenticate(request: FastifyRequest, token: string | undefined, account: AccountRecord | undefined): void {
    if (token === undefined) throw problems.unauthorized('The API key is missing. Send Authorization: Bearer <API key>.');
    if (!account) throw problems.unauthorized('The API key is invalid or revoked.');
    if (!API_PLANS.has(account.plan)) throw problems.planRequired(account.plan);
    accounts.set(request, account);
  }

  /** A scripted create that fails before its write: after authentication and body parsing, before the handler. */
  app.addHook('preHandler', async (request, reply) => {
    const planned = scripted.get(request);
    const fault = planned?.kind === 'scripted' ? planned.fault : 'none';
    if (fault === 'lateWrite') {
      // No answer now; the write lands hangMs later (after the client's timeout, as a slow service's does).
      faulted.add(request);
      scheduleSecondCaller(request);
      const account = accountOf(request);
      const input = validBody<CreateLinkInput>(request, '/links', 'post');
      reply.hijack();
      setTimeout(() => {
        try {
          store.createLink(account.id, input);
        } catch {
          // Refused when it lands (the slug was taken meanwhile, the quota used up): nothing stored.
        }
        request.raw.socket.destroy();
      }, faults.hangMs);
      return;
    }
    if (fault !== 'resetBefore' && fault !== 'serverErrorBefore') return;
    faulted.add(request);
    scheduleSecondCaller(request);
    if (fault === 'resetBefore') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    throw problems.unavailable();
  });

  // Request processed (a create is stored), then its answer lost on the way back: the connection dropped,
  // a gateway's 502 instead, or the body cut in half. The client cannot tell from the answer that it worked.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.split('?')[0] === OPENAPI_ROUTE || faulted.has(request)) return payload;
    const planned = scripted.get(request);
    const fault: AfterFault = planned?.kind === 'scripted' ? (planned.fault as AfterFault) : faults.after(request.method);
    if (fault !== 'none' && reply.statusCode < 300) scheduleSecondCaller(request);
    if (fault === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return payload;
    }
    if (fault === 'serverError') {
      const problem = problems.badGateway();
      reply.code(problem.status).type('application/problem+json');
      return JSON.stringify(problem.body);
    }
    if (fault === 'gatewayTimeout') {
      const problem = problems.gatewayTimeout();
      reply.code(problem.status).type('application/problem+json');
      return JSON.stringify(problem.body);
    }
    if (fault === 'timeout') {
      // The write is done; the answer never comes, and the connection is dropped once the wait is over.
      await new Promise((resolve) => setTimeout(resolve, faults.hangMs));
      reply.hijack();
      request.raw.socket.destroy();
      return payload;
    }
    if (fault === 'brokenBody' && typeof payload === 'string' && payload.length > 1) return payload.slice(0, Math.floor(payload.length / 2));
    return payload;
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, _request, reply) => {
    let problem: ApiProblem;
    if (error instanceof ApiProblem) problem = error;
    else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') problem = problems.malformed('The request body is too large.');
    else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      problem = problems.malformed(error.message);
    } else problem = problems.internal();
    return reply.code(problem.status).type('application/problem+json').send(problem.body);
  });

  app.setNotFoundHandler(async (request) => {
    throw problems.routeNotFound(request.method, request.url.split('?')[0]);
  });

  const accountOf = (request: FastifyRequest): AccountRecord => {
    const account = accounts.get(request);
    if (!account) throw problems.unauthorized();
    return account;
  };
  const present = (link: Parameters<typeof store.toLink>[0]): Link => store.toLink(link, options.context.baseUrl);

  const validBody = <T>(request: FastifyRequest, path: string, method: string): T => {
    if (request.body === undefined) throw problems.malformed('The request body is missing; send a JSON object.');
    const validate = validatorAt(requestBodyPointer(path, method));
    if (!validate(request.body)) throw problems.validation(fieldErrors(validate.errors));
    return request.body as T;
  };

  const json = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type('application/json').send(body);

  app.get('/openapi.json', async (_request, reply) => json(reply, 200, openApiJson()));

  app.get('/links', async (request, reply) => {
    const account = accountOf(request);
    const query = { ...(request.query as Record<string, unknown>) };
    const validate = queryValidator('/links', 'get');
    if (!validate(query)) throw problems.validation(fieldErrors(validate.errors, 'query'));
    const { limit, cursor } = query as { limit: number; cursor?: string };
    const { quirks } = options.context;
    if (quirks.cursorCycle && isCycleCursor(cursor)) return json(reply, 200, cycle.page(cursor!, limit, store.listLinks(account.id, 1).page.map(present)[0], now()));
    let after;
    if (cursor !== undefined) {
      after = decodeCursor(cursor);
      if (!after) {
        const message = 'cursor is not a valid cursor; pass the nextCursor of a previous page.';
        throw problems.validation([{ field: 'cursor', message }]);
      }
    }
    const { listOrder, listLagMs = 0 } = context.quirks;
    const view = { oldestFirst: listOrder === 'oldest first', ...(listLagMs > 0 ? { visibleUntil: now() - listLagMs } : {}) };
    const { page, hasMore } = store.listLinks(account.id, limit, after, view);
    const last = page[page.length - 1];
    if (quirks.cursorCycle && cursor === undefined) return json(reply, 200, { data: page.map(present), nextCursor: CYCLE_CURSORS[0] });
    return json(reply, 200, { data: page.map(present), nextCursor: hasMore && last ? encodeCursor(last) : null });
  });

  app.post('/links', async (request, reply) => {
    const account = accountOf(request);
    const input = validBody<CreateLinkInput>(request, '/links', 'post');
    const link = present(store.createLink(account.id, input));
    const created = Object.fromEntries(CREATED_FIELDS.map((field) => [field, link[field]]));
    return json(reply, 201, created);
  });

  app.get('/links/:id', async (request, reply) => {
    const account = accountOf(request);
    const { id } = request.params as { id: string };
    return json(reply, 200, present(store.link(account.id, id)));
  });

  app.patch('/links/:id', async (request, reply) => {
    const account = accountOf(request);
    const { id } = request.params as { id: string };
    const patch = validBody<UpdateLinkInput>(request, '/links/{id}', 'patch');
    return json(reply, 200, present(store.updateLink(account.id, id, patch)));
  });

  app.delete('/links/:id', async (request, reply) => {
    const account = accountOf(request);
    const { id } = request.params as { id: string };
    store.deleteLink(account.id, id);
    return reply.code(204).send();
  });

  app.get('/links/:id/stats', async (request, reply) => {
    const account = accountOf(request);
    const { id } = request.params as { id: string };
    const link = store.link(account.id, id);
    return json(reply, 200, computeStats(link.id, store.clicksOf(link.id)));
  });

  app.get('/domains', async (request, reply) => {
    const account = accountOf(request);
    const data = store.verifiedDomains(account.id).map(({ id, hostname, verified, createdAt }) => ({ id, hostname, verified, createdAt }));
    return json(reply, 200, { data });
  });

  app.get('/me', async (request, reply) => {
    const account = accountOf(request);
    const { quota, used, periodStart, periodEnd } = store.linkQuotaOf(account.id);
    return json(reply, 200, {
      id: account.id,
      name: account.name,
      email: account.email,
      plan: { name: account.plan, apiAccess: API_PLANS.has(account.plan), linkQuota: quota },
      usage: {
        periodStart,
        periodEnd,
        links: used,
        clicks: store.clicksInMonth(account.id, periodStart),
      },
    });
  });
}
