/** Public shapes of the sandbox (the seam tests code against) and its internal records. */

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

/** The full twelve-field link, exactly as the API answers it. */
export interface Link {
  id: string;
  slug: string;
  shortUrl: string;
  targetUrl: string;
  title: string;
  domain: string | null;
  active: boolean;
  blocked: boolean;
  hasPassword: boolean;
  clicks: number;
  expiresAt: string | null;
  createdAt: string;
}

export interface FaultOptions {
  /** Share (0..1) of API requests answered with a 500, 502 or 503 problem. */
  errorRate?: number;
  /** Share of API requests whose connection is destroyed before processing. */
  resetBeforeRate?: number;
  /** Share of API requests processed, then the connection destroyed before the answer. */
  resetAfterRate?: number;
  /** Share of API requests processed (a write is stored), then answered 502 as a gateway that lost the answer. */
  serverErrorAfterRate?: number;
  /** Share of API requests processed, then answered with their status but only half of the body (broken JSON). */
  brokenBodyAfterRate?: number;
  /** Methods the after-processing faults apply to; default all. E.g. ['POST'] for creates only. */
  afterFaultMethods?: string[];
  /** Delay added to every API request. */
  latencyMs?: number;
  /** Share of API requests answered 429 with Retry-After although the key has requests left. */
  rateLimitStormRate?: number;
  /** Seed of the fault dice, for reproducible runs. */
  randomSeed?: number;
  /** Share of API requests processed, then the answer withheld for `hangMs` and the connection dropped (a timeout after the write). */
  timeoutAfterRate?: number;
  /** How long a withheld answer hangs before its connection is dropped; default 2 000. */
  hangMs?: number;
  /**
   * Share of creates (POST /links) that hang without an answer and are stored `hangMs` later, then dropped:
   * a write that lands after the client gave up on it (its timeout), as a slow service or queue does.
   */
  lateWriteRate?: number;
  /**
   * Faults for the next POST /links requests, one each in order (then the dice again): a script for tests
   * that need one exact story. Takes precedence over the rates for those requests.
   */
  createFaults?: CreateFault[];
}

/**
 * One create's fault. Before the write (nothing stored): `resetBefore`, `serverErrorBefore` (a 503).
 * After the write (the link is stored, its answer lost): `reset`, `serverError` (a gateway's 502),
 * `gatewayTimeout` (504), `timeout` (the answer withheld, then the connection dropped), `brokenBody`
 * (the 201 cut short). `lateWrite`: no answer; the link is stored `hangMs` later, after the client may have
 * given up, and the connection is dropped then. `none`: answered normally.
 */
export type CreateFault = 'none' | 'resetBefore' | 'serverErrorBefore' | 'reset' | 'serverError' | 'gatewayTimeout' | 'timeout' | 'brokenBody' | 'lateWrite';

/**
 * How the service behaves where the spec is silent, and a second caller: knobs for the create path's
 * tests (docs/guarantees.md, "The create rule").
 */
export interface ServiceQuirks {
  /** GET /links pages lead in a circle (quirks.ts); default off. */
  cursorCycle?: boolean;
  /** How rate-limit times are written (quirks.ts): 'delta' (the document), 'epoch' or 'http-date'. */
  rateLimitTimes?: 'delta' | 'epoch' | 'http-date';
  /** Order of GET /links; default 'newest first'. */
  listOrder?: 'newest first' | 'oldest first';
  /** A stored link shows in GET /links only this long after it was stored (a lagging replica); default 0. */
  listLagMs?: number;
  /** The service's clock, ms ahead of the sandbox's (negative: behind), as the Date header and absolute rate-limit times show it; default 0. */
  dateOffsetMs?: number;
  /** The clock that stamps createdAt, ms ahead of the sandbox's; default 0. */
  createdAtOffsetMs?: number;
  /** false: answers carry no Date header. Default true. */
  sendDate?: boolean;
  /**
   * Another caller creates the same link (same body) `delayMs` after a create's answer was lost (or its
   * request dropped), on the sandbox's clock: at the first API request that arrives from then on (at once
   * when 0). Its links are listed in `sandbox.secondCallerLinks` — that caller was told their ids.
   */
  secondCaller?: {
    delayMs: number;
    /** The second caller sends no slug (its client chooses its own marker, or the service picks one). */
    omitSlug?: boolean;
  };
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
}

export interface SandboxOptions {
  host?: string;
  port?: number;
  rateLimit?: RateLimitOptions;
  faults?: FaultOptions;
  quirks?: ServiceQuirks;
  seed?: boolean;
  demoApiKey?: string;
  /** The demo account's links per calendar month (null: unlimited); default its plan's. Set on every start. */
  demoLinkQuota?: number | null;
  dataFile?: string;
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  /** The raw request target, query string included. */
  url: string;
  /** The raw path (still percent-encoded), e.g. '/api/v1/links/12'. */
  path: string;
  /** When it arrived (epoch ms, the sandbox's clock). */
  receivedAt: number;
  /** The status answered, once the answer went out; absent while in progress or when the connection was dropped. */
  status?: number;
  /** When the answer went out (epoch ms, the sandbox's clock). */
  answeredAt?: number;
}

export interface Sandbox {
  baseUrl: string;
  apiKey: string;
  demoAccountId: string;
  createAccount(input: { name: string; email: string; plan: PlanName; linkQuota?: number | null }): { accountId: string; apiKey: string };
  addDomain(accountId: string, hostname: string, verified?: boolean): void;
  links(accountId: string): Link[];
  /**
   * Puts `count` links straight into the account's store (no API, no rate limit, no request recorded),
   * oldest first, `spacingMs` apart (default 1; 0: one millisecond for all), the newest at `endAt`
   * (default now); returns them oldest first. For large accounts in tests and benchmarks.
   */
  seedLinks(accountId: string, count: number, options?: { spacingMs?: number; endAt?: number; label?: string }): Link[];
  requests: RecordedRequest[];
  /** Sets the service-only `blocked` flag of a link (abuse handling), for tests. */
  setBlocked(linkId: string, blocked: boolean): void;
  setFaults(faults: FaultOptions | undefined): void;
  /** Replaces the service's quirks (list order, list lag, clocks, Date header, a second caller, a cursor circle, rate-limit time forms). */
  setQuirks(quirks: ServiceQuirks | undefined): void;
  /** Links the simulated second caller created (ServiceQuirks.secondCaller), each told to that caller as created. */
  secondCallerLinks: Link[];
  setRateLimit(rateLimit: RateLimitOptions): void;
  /** The account's plan, its links per calendar month (null: unlimited) and how many it created this month. */
  linkQuotaOf(accountId: string): { plan: PlanName; linkQuota: number | null; used: number };
  /** Links per calendar month (UTC) for the account instead of its plan's (null: unlimited; undefined: the plan's again). */
  setLinkQuota(accountId: string, linkQuota: number | null | undefined): void;
  /** The next link created through the API gets this id (a deleted link's): a service that reuses ids. */
  reuseLinkId(id: string): void;
  close(): Promise<void>;
}

// ---- internal records (also the persisted form) ----

export interface AccountRecord {
  id: string;
  name: string;
  email: string;
  plan: PlanName;
  createdAt: string;
  /** Links per calendar month (UTC) for this account instead of its plan's; null: unlimited. */
  linkQuota?: number | null;
}

export interface DomainRecord {
  id: string;
  accountId: string;
  hostname: string;
  verified: boolean;
  createdAt: string;
}

export interface LinkRecord {
  id: string;
  accountId: string;
  slug: string;
  targetUrl: string;
  title: string;
  domain: string | null;
  active: boolean;
  blocked: boolean;
  /** salt:sha256 of the password; null when the link has none. */
  passwordHash: string | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface ClickRecord {
  linkId: string;
  at: string;
  country: string;
  device: string;
  browser: string;
  referrer: string;
}

export interface SandboxState {
  version: 1;
  nextId: number;
  /** The seeded demo account, so that a restart from a data file finds it again. */
  demoAccountId?: string;
  accounts: AccountRecord[];
  /** sha256 (hex) of each API key → account id. The keys themselves are never kept. */
  keyHashes: Record<string, string>;
  domains: DomainRecord[];
  links: LinkRecord[];
  clicks: ClickRecord[];
}
