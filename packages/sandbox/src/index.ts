/**
 * @shortlink/sandbox: the short-link service on loopback, validated by the project's OpenAPI
 * document. startSandbox() is the seam tests, benchmarks and `npm start` use.
 */
import Fastify from 'fastify';
import { API_PREFIX, apiRoutes } from './api-routes';
import type { SandboxContext } from './context';
import { FaultInjector } from './faults';
import { loadState, saveState } from './persistence';
import { RateLimiter } from './rate-limiter';
import { redirectRoutes } from './redirect-routes';
import { serviceNow } from './quirks';
import { seedDemo } from './seed';
import { emptyState, Store } from './store';
import type { PlanName, RecordedRequest, Sandbox, SandboxOptions, ServiceQuirks } from './types';

export type { CreateFault, FaultOptions, ServiceQuirks, Link, PlanName, RateLimitOptions, RecordedRequest, Sandbox, SandboxOptions } from './types';
export { openApiDocument, OPENAPI_PATH } from './contract';
export { API_PREFIX } from './api-routes';
export { CYCLE_CURSORS } from './quirks';

export const DEFAULT_RATE_LIMIT = { limit: 120, windowSeconds: 60 } as const;
const SAVE_DELAY_MS = 1000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const dataFile = options.dataFile;
  const loaded = dataFile ? loadState(dataFile) : undefined;
  // The data file is written at most once a second and on close(): a save writes the whole state, so one per
  // change would make every request slower as the account grows.
  let pendingSave: NodeJS.Timeout | undefined;
  const save = () => {
    pendingSave = undefined;
    if (dataFile) saveState(dataFile, store.snapshot());
  };
  const store: Store = new Store(loaded ?? emptyState(), now, () => {
    if (!dataFile || pendingSave) return;
    pendingSave = setTimeout(save, SAVE_DELAY_MS);
    pendingSave.unref();
  });

  let apiKey = '';
  let demoAccountId = '';
  if (options.seed !== false) {
    const existing = store.state.demoAccountId;
    if (existing !== undefined && store.state.accounts.some((a) => a.id === existing)) {
      // Restarted from a data file: the old key survives only as a hash, so hand out a fresh one.
      demoAccountId = existing;
      apiKey = options.demoApiKey ?? store.issueKey(existing);
      if (options.demoApiKey !== undefined) store.registerKey(existing, options.demoApiKey);
    } else {
      ({ accountId: demoAccountId, apiKey } = seedDemo(store, now, options.demoApiKey));
    }
  }

  // The quota the start asked for, or the plan's again: a restart from a data file does not keep an old one.
  if (demoAccountId !== '') store.setLinkQuota(demoAccountId, options.demoLinkQuota);

  const context: SandboxContext = {
    store,
    limiter: new RateLimiter({ ...(options.rateLimit ?? DEFAULT_RATE_LIMIT) }, now),
    faults: new FaultInjector(options.faults),
    now,
    baseUrl: '',
    quirks: {},
    pendingSecondCalls: [],
    secondCallerLinks: [],
  };
  const setQuirks = (quirks: ServiceQuirks | undefined) => {
    context.quirks = { ...(quirks ?? {}) };
    store.createdAtOffsetMs = context.quirks.createdAtOffsetMs ?? 0;
    context.pendingSecondCalls = [];
  };
  setQuirks(options.quirks);
  const requests: RecordedRequest[] = [];

  // forceCloseConnections: close() must not wait for keep-alive sockets of test clients.
  // maxParamLength: a long id must be a 404 problem, not fastify's 414.
  const app = Fastify({ logger: false, forceCloseConnections: true, routerOptions: { maxParamLength: 4096 } });
  const records = new WeakMap<object, RecordedRequest>();
  app.addHook('onRequest', async (request) => {
    const record: RecordedRequest = { method: request.method, url: request.url, path: request.url.split('?')[0]!, receivedAt: now() };
    records.set(request, record);
    requests.push(record);
  });
  // Statuses and times of the answers: what several clients on one key got (429s) and how fast (rate use).
  app.addHook('onResponse', async (request, reply) => {
    const record = records.get(request);
    if (!record || !reply.raw.writableFinished) return;
    record.status = reply.statusCode;
    record.answeredAt = now();
  });
  // The Date header from the same clock that stamps createdAt, as on a real service (the clock may be a test's).
  // Quirks: a Date clock off the sandbox's, or no Date header at all.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (context.quirks.sendDate === false) {
      reply.removeHeader('Date');
      reply.raw.sendDate = false; // Node adds one itself otherwise
    }
    else reply.header('Date', new Date(serviceNow(context.quirks, now())).toUTCString());
    return payload;
  });
  await app.register(apiRoutes, { prefix: API_PREFIX, context });
  await app.register(redirectRoutes, { context });

  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The sandbox did not get a TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  context.baseUrl = `http://${host}:${address.port}`;

  return {
    baseUrl: context.baseUrl,
    apiKey,
    demoAccountId,
    requests,
    createAccount(input: { name: string; email: string; plan: PlanName; linkQuota?: number | null }) {
      const { account, apiKey: key } = store.createAccount(input);
      return { accountId: account.id, apiKey: key };
    },
    addDomain(accountId, hostname, verified = true) {
      store.addDomain(accountId, hostname, verified);
    },
    links(accountId) {
      return store.linksOf(accountId).map((link) => store.toLink(link, context.baseUrl));
    },
    seedLinks(accountId, count, seedOptions) {
      return store.seedLinks(accountId, count, seedOptions).map((link) => store.toLink(link, context.baseUrl));
    },
    setBlocked(linkId, blocked) {
      store.setBlocked(linkId, blocked);
    },
    setFaults(faults) {
      context.faults.configure(faults);
    },
    setQuirks,
    get secondCallerLinks() {
      return context.secondCallerLinks;
    },
    setRateLimit(rateLimit) {
      context.limiter.configure(rateLimit);
    },
    reuseLinkId(id) {
      store.reuseLinkId(id);
    },
    linkQuotaOf(accountId) {
      const { quota, used } = store.linkQuotaOf(accountId);
      return { plan: store.account(accountId).plan, linkQuota: quota, used };
    },
    setLinkQuota(accountId, linkQuota) {
      store.setLinkQuota(accountId, linkQuota);
    },
    async close() {
      await app.close();
      if (pendingSave) {
        clearTimeout(pendingSave);
        save();
      }
    },
  };
}
