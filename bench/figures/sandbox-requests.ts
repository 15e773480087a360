/**
 * Figure (issue 36): the sandbox answers in a time that does not grow with the account. Two accounts of one
 * sandbox, `small` and `large` links (seeded straight into the store, all in this month, so the quota counts
 * them), are sent the same requests side by side: rounds alternate which account goes first, and each round
 * sends `batch` requests of one kind to one account, one after another over one keep-alive connection. The
 * figure is the median per-request time at the large account ÷ at the small one, per kind of request:
 * create (the goal row), then list (first page and a page deep inside by cursor), read, statistics,
 * account (GET /me) and delete. The rate limit is out of the way.
 */
import { startSandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { median } from '../lib/statistics';

export interface SandboxRequestOptions {
  small: number;
  large: number;
  rounds: number;
  batch: number;
  log: (line: string) => void;
}

interface Account {
  label: string;
  apiKey: string;
  /** Links made in this figure (read, then deleted). */
  made: string[];
  /** A cursor in the middle of the account's list. */
  middleCursor: string;
}

type Kind = 'create' | 'list first page' | 'list by cursor' | 'read' | 'statistics' | 'account' | 'delete';
const KINDS: Kind[] = ['create', 'list first page', 'list by cursor', 'read', 'statistics', 'account', 'delete'];

export async function sandboxRequestFigures({ small, large, rounds, batch, log }: SandboxRequestOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ seed: false, rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  try {
    const api = `${sandbox.baseUrl}/api/v1`;
    const call = async (account: Account, method: string, path: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: { Authorization: `Bearer ${account.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`sandbox figure: ${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
      return text === '' ? undefined : JSON.parse(text);
    };

    const accounts: Account[] = [];
    for (const [label, count] of [['small', small], ['large', large]] as const) {
      const { accountId, apiKey } = sandbox.createAccount({ name: label, email: `${label}@bench.example`, plan: 'business' });
      const started = Date.now();
      sandbox.seedLinks(accountId, count, { label: `sandbox-${label}`, endAt: Date.now() - 60_000 });
      const account: Account = { label, apiKey, made: [], middleCursor: '' };
      // The cursor after the first half: walk there once with the largest pages.
      let cursor: string | null = null;
      for (let seen = 0; seen < count / 2; seen += 50) {
        const page = (await call(account, 'GET', `/links?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as { nextCursor: string | null };
        cursor = page.nextCursor;
      }
      account.middleCursor = cursor ?? '';
      accounts.push(account);
      log(`sandbox: ${label} account with ${count} links ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }

    const send: Record<Kind, (account: Account, i: number) => Promise<unknown>> = {
      create: async (account, i) => {
        const created = (await call(account, 'POST', '/links', { targetUrl: `https://example.org/sandbox-figure/${account.label}/${account.made.length}-${i}` })) as { id: string };
        account.made.push(created.id);
      },
      'list first page': (account) => call(account, 'GET', '/links?limit=50'),
      'list by cursor': (account) => call(account, 'GET', `/links?limit=50&cursor=${encodeURIComponent(account.middleCursor)}`),
      read: (account, i) => call(account, 'GET', `/links/${account.made[i % account.made.length]}`),
      statistics: (account, i) => call(account, 'GET', `/links/${account.made[i % account.made.length]}/stats`),
      account: (account) => call(account, 'GET', '/me'),
      delete: (account) => call(account, 'DELETE', `/links/${account.made.pop()}`),
    };

    // Warm-up: the server's and the client's code paths, both accounts.
    for (const account of accounts) for (const kind of KINDS) for (let i = 0; i < batch; i++) await send[kind](account, i);

    const perRequestMs = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? accounts : [...accounts].reverse();
      for (const kind of KINDS) {
        for (const account of order) {
          const started = process.hrtime.bigint();
          for (let i = 0; i < batch; i++) await send[kind](account, i);
          const ms = Number(process.hrtime.bigint() - started) / 1e6 / batch;
          const key = `${kind} ${account.label}`;
          perRequestMs.set(key, [...(perRequestMs.get(key) ?? []), ms]);
        }
      }
    }

    const rows: ResultRow[] = [];
    const ratios: string[] = [];
    for (const kind of KINDS) {
      const smallMs = median(perRequestMs.get(`${kind} small`)!);
      const largeMs = median(perRequestMs.get(`${kind} large`)!);
      ratios.push(`${kind} ${(largeMs / smallMs).toFixed(2)} (${smallMs.toFixed(2)} → ${largeMs.toFixed(2)} ms)`);
      if (kind === 'create') {
        rows.push(
          row(`Sandbox: create time, ${large} vs ${small} links in the account`, largeMs / smallMs, '× (flat = 1)', { op: '<=', target: 1.2 }, null,
            `median per request over ${rounds} alternating rounds of ${batch}: ${smallMs.toFixed(2)} ms → ${largeMs.toFixed(2)} ms`),
        );
      }
    }
    const others = KINDS.filter((kind) => kind !== 'create').map((kind) => median(perRequestMs.get(`${kind} large`)!) / median(perRequestMs.get(`${kind} small`)!));
    rows.push(
      row(`Sandbox: slowest other request, ${large} vs ${small} links`, Math.max(...others), '× (flat = 1)', { op: '<=', target: 1.2 }, null, ratios.slice(1).join('; ')),
    );
    log(`sandbox: ${ratios.join('; ')}`);
    return rows;
  } finally {
    await sandbox.close();
  }
}
