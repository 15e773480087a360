/**
 * The sandbox's state: accounts, hashed keys, domains, links and clicks, with the rules of the
 * contract that concern data (slug uniqueness per domain, verified domains, ownership).
 * Every change calls `onChange` so that persistence can save.
 */
import type { AccountRecord, ClickRecord, DomainRecord, Link, LinkRecord, PlanName, SandboxState } from './types';
import { problems } from './problems';
import { hashPassword, newApiKey, newSlug, sha256Hex } from './secrets';

export const API_PLANS: ReadonlySet<PlanName> = new Set(['business', 'enterprise']);
/**
 * Links per calendar month (UTC), enforced on create (403 quota-exceeded); null = unlimited. Business is
 * high enough for the benchmarks' seeded accounts (100 000 links); tests of a small quota give an account
 * its own (createAccount({ linkQuota })).
 */
export const LINK_QUOTA: Record<PlanName, number | null> = { free: 25, pro: 1000, business: 1_000_000, enterprise: null };

export interface CreateLinkInput {
  targetUrl: string;
  slug?: string;
  title?: string;
  domain?: string;
  expiresAt?: string;
  password?: string;
}

export interface UpdateLinkInput {
  targetUrl?: string;
  slug?: string;
  title?: string;
  active?: boolean;
  expiresAt?: string | null;
  password?: string | null;
}

export interface LinkCursor {
  createdAt: string;
  id: string;
}

export function emptyState(): SandboxState {
  return { version: 1, nextId: 1001, accounts: [], keyHashes: {}, domains: [], links: [], clicks: [] };
}

/** Newest first: createdAt descending, then id descending (ids are numeric text). */
export function compareNewestFirst(a: LinkCursor, b: LinkCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return compareNumericText(b.id, a.id);
}

function compareNumericText(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Any RFC 3339 date-time → UTC with milliseconds. */
export function normaliseTimestamp(value: string): string {
  return new Date(value).toISOString();
}

/** Month of an ISO timestamp ('2026-05'): the period the plan's quota and the usage figures count in. */
const monthOf = (iso: string) => iso.slice(0, 7);

/** A per-account, per-month counter. */
class MonthCounter {
  private readonly counts = new Map<string, Map<string, number>>();
  add(accountId: string, month: string, delta: number): void {
    let months = this.counts.get(accountId);
    if (!months) this.counts.set(accountId, (months = new Map()));
    const next = (months.get(month) ?? 0) + delta;
    if (next === 0) months.delete(month);
    else months.set(month, next);
  }
  get(accountId: string, month: string): number {
    return this.counts.get(accountId)?.get(month) ?? 0;
  }
}

/**
 * One account's links, oldest first (createdAt, then numeric id): a new link goes at the end, the usual case,
 * in O(1); a link stamped earlier than the newest (another clock, seeded history) by binary search.
 */
class OrderedLinks {
  readonly items: LinkRecord[] = [];

  /** The index of the first link not older than `cursor`. */
  firstNotOlder(cursor: LinkCursor): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareNewestFirst(this.items[middle]!, cursor) > 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(link: LinkRecord): void {
    const last = this.items[this.items.length - 1];
    if (last === undefined || compareNewestFirst(link, last) < 0) this.items.push(link);
    else this.items.splice(this.firstNotOlder(link), 0, link);
  }

  /** Many links at once (seeding): appended when all are newer, else one sort. */
  insertMany(links: LinkRecord[]): void {
    const sorted = [...links].sort((a, b) => compareNewestFirst(b, a));
    const last = this.items[this.items.length - 1];
    for (const link of sorted) this.items.push(link);
    if (last !== undefined && sorted.length > 0 && compareNewestFirst(sorted[0]!, last) >= 0) this.items.sort((a, b) => compareNewestFirst(b, a));
  }

  remove(link: LinkRecord): void {
    const at = this.firstNotOlder(link);
    if (this.items[at] === link) this.items.splice(at, 1);
  }
}

/**
 * Every request costs the same whatever the account's size: links are indexed by id, by slug and per account
 * in order; the month's link and click counts are counters kept on every change (no scan); the data file is
 * written at most once a second (and on close), not after every change.
 */
export class Store {
  private readonly clicksByLink = new Map<string, ClickRecord[]>();
  private readonly linksById = new Map<string, LinkRecord>();
  private readonly linksBySlug = new Map<string, LinkRecord>();
  private readonly accountsById = new Map<string, AccountRecord>();
  /** Each account's links, oldest first. */
  private readonly ordered = new Map<string, OrderedLinks>();
  /** Links per account and month of createdAt; clicks per account and month of the click. */
  private readonly linksPerMonth = new MonthCounter();
  private readonly clicksPerMonth = new MonthCounter();
  /** When each link was stored, on the sandbox's own clock (createdAt may be stamped by another clock). */
  private readonly storedAt = new Map<string, number>();
  /** The clock that stamps createdAt, ms ahead of `now` (ServiceQuirks.createdAtOffsetMs). */
  createdAtOffsetMs = 0;
  /** Accounts, keys, domains and the id counter; links and clicks live in the indexes above (snapshot()). */
  readonly state: Omit<SandboxState, 'links' | 'clicks'>;

  constructor(
    state: SandboxState,
    private readonly now: () => number,
    private readonly onChange: () => void,
  ) {
    const { links, clicks, ...rest } = state;
    this.state = rest;
    for (const account of state.accounts) this.accountsById.set(account.id, account);
    const byAccount = new Map<string, LinkRecord[]>();
    for (const link of links) {
      this.index(link);
      this.linksPerMonth.add(link.accountId, monthOf(link.createdAt), 1);
      let list = byAccount.get(link.accountId);
      if (!list) byAccount.set(link.accountId, (list = []));
      list.push(link);
    }
    for (const [accountId, list] of byAccount) this.orderedOf(accountId).insertMany(list);
    for (const click of clicks) this.addClick(click);
  }

  /** The whole state as the data file keeps it. */
  snapshot(): SandboxState {
    return { ...this.state, links: [...this.linksById.values()], clicks: [...this.clicksByLink.values()].flat() };
  }

  private static slugKey(domain: string | null, slug: string): string {
    return `${domain ?? ''} ${slug}`;
  }

  private index(link: LinkRecord): void {
    this.linksById.set(link.id, link);
    this.linksBySlug.set(Store.slugKey(link.domain, link.slug), link);
  }

  private orderedOf(accountId: string): OrderedLinks {
    let links = this.ordered.get(accountId);
    if (!links) this.ordered.set(accountId, (links = new OrderedLinks()));
    return links;
  }

  /** Ids the next created links get (a service that reuses the ids of deleted links): reuseLinkId(). */
  private readonly reusedIds: string[] = [];

  /** The next link created gets this id (it must be free: a deleted link's). */
  reuseLinkId(id: string): void {
    if (this.linksById.has(id)) throw new Error(`link id ${id} is in use`);
    this.reusedIds.push(id);
  }

  private nextId(): string {
    return String(this.state.nextId++);
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  private addClick(click: ClickRecord): void {
    let list = this.clicksByLink.get(click.linkId);
    if (!list) this.clicksByLink.set(click.linkId, (list = []));
    list.push(click);
    const link = this.linksById.get(click.linkId);
    if (link) this.clicksPerMonth.add(link.accountId, monthOf(click.at), 1);
  }

  // ---- accounts and keys ----

  /** A new account with one key (random unless given); only the key's hash is kept. */
  createAccount(
    input: { name: string; email: string; plan: PlanName; linkQuota?: number | null },
    apiKey: string = newApiKey(),
  ): { account: AccountRecord; apiKey: string } {
    if (!['free', 'pro', 'business', 'enterprise'].includes(input.plan)) throw new Error(`plan ${input.plan} is not a plan`);
    const account: AccountRecord = { id: this.nextId(), name: input.name, email: input.email, plan: input.plan, createdAt: this.timestamp() };
    if (input.linkQuota !== undefined) account.linkQuota = input.linkQuota;
    this.state.accounts.push(account);
    this.accountsById.set(account.id, account);
    this.state.keyHashes[sha256Hex(apiKey)] = account.id;
    this.onChange();
    return { account, apiKey };
  }

  /** Registers a caller-chosen key (e.g. --api-key) for an account; only its hash is kept. */
  registerKey(accountId: string, apiKey: string): void {
    this.account(accountId);
    this.state.keyHashes[sha256Hex(apiKey)] = accountId;
    this.onChange();
  }

  issueKey(accountId: string): string {
    const apiKey = newApiKey();
    this.registerKey(accountId, apiKey);
    return apiKey;
  }

  accountForKey(apiKey: string): AccountRecord | undefined {
    const id = this.state.keyHashes[sha256Hex(apiKey)];
    return id === undefined ? undefined : this.accountsById.get(id);
  }

  account(accountId: string): AccountRecord {
    const account = this.accountsById.get(accountId);
    if (!account) throw new Error(`No account with id ${accountId}`);
    return account;
  }

  /** Sets the account's links per calendar month (null: unlimited), or back to its plan's with undefined. */
  setLinkQuota(accountId: string, linkQuota: number | null | undefined): void {
    const account = this.account(accountId);
    if (linkQuota === undefined) delete account.linkQuota;
    else account.linkQuota = linkQuota;
    this.onChange();
  }

  // ---- domains ----

  addDomain(accountId: string, hostname: string, verified = true): DomainRecord {
    this.account(accountId);
    const name = hostname.toLowerCase();
    const existing = this.state.domains.find((d) => d.hostname === name);
    if (existing && existing.accountId !== accountId) throw new Error(`The domain ${name} belongs to another account`);
    if (existing) {
      existing.verified = verified;
      this.onChange();
      return existing;
    }
    const domain: DomainRecord = { id: this.nextId(), accountId, hostname: name, verified, createdAt: this.timestamp() };
    this.state.domains.push(domain);
    this.onChange();
    return domain;
  }

  verifiedDomains(accountId: string): DomainRecord[] {
    return this.state.domains.filter((d) => d.accountId === accountId && d.verified);
  }

  /** The verified domain serving a Host header, if any. */
  domainForHost(hostname: string): DomainRecord | undefined {
    const name = hostname.toLowerCase();
    return this.state.domains.find((d) => d.hostname === name && d.verified);
  }

  // ---- links ----

  private slugTaken(slug: string, domain: string | null, exceptId?: string): boolean {
    const holder = this.linksBySlug.get(Store.slugKey(domain, slug));
    return holder !== undefined && holder.id !== exceptId;
  }

  /** Links the account may still create this calendar month (UTC); null: no quota. */
  linkQuotaOf(accountId: string): { quota: number | null; used: number; periodStart: string; periodEnd: string } {
    const account = this.account(accountId);
    const current = new Date(this.now());
    const periodStart = new Date(Date.UTC(current.getUTCFullYear(), current.getUTCMonth(), 1)).toISOString();
    const periodEnd = new Date(Date.UTC(current.getUTCFullYear(), current.getUTCMonth() + 1, 1) - 1).toISOString();
    const used = this.linksPerMonth.get(accountId, monthOf(periodStart));
    const quota = account.linkQuota !== undefined ? account.linkQuota : LINK_QUOTA[account.plan];
    return { quota, used, periodStart, periodEnd };
  }

  createLink(accountId: string, input: CreateLinkInput): LinkRecord {
    const { quota, used } = this.linkQuotaOf(accountId);
    if (quota !== null && used >= quota) throw problems.quotaExceeded(quota, this.account(accountId).plan);
    let domain: string | null = null;
    if (input.domain !== undefined) {
      domain = input.domain.toLowerCase();
      if (!this.verifiedDomains(accountId).some((d) => d.hostname === domain)) throw problems.domainForbidden(input.domain);
    }
    let slug = input.slug;
    if (slug !== undefined) {
      if (this.slugTaken(slug, domain)) throw problems.slugTaken(slug, domain);
    } else {
      // 62^7 slugs: a clash is rare, the bound only guards against a full namespace.
      for (let attempt = 0; attempt < 20 && (slug === undefined || this.slugTaken(slug, domain)); attempt++) slug = newSlug();
      if (slug === undefined || this.slugTaken(slug, domain)) throw problems.internal();
    }
    const link: LinkRecord = {
      id: this.reusedIds.shift() ?? this.nextId(),
      accountId,
      slug,
      targetUrl: input.targetUrl,
      title: input.title ?? '',
      domain,
      active: true,
      blocked: false,
      passwordHash: input.password === undefined ? null : hashPassword(input.password),
      expiresAt: input.expiresAt === undefined ? null : normaliseTimestamp(input.expiresAt),
      createdAt: new Date(this.now() + this.createdAtOffsetMs).toISOString(),
    };
    this.index(link);
    this.orderedOf(accountId).insert(link);
    this.linksPerMonth.add(accountId, monthOf(link.createdAt), 1);
    this.storedAt.set(link.id, this.now());
    this.onChange();
    return link;
  }

  /** A link of the account; other accounts' links are "not found" as well. */
  link(accountId: string, id: string): LinkRecord {
    const link = this.linksById.get(id);
    if (!link || link.accountId !== accountId) throw problems.linkNotFound(id);
    return link;
  }

  /**
   * One page strictly after the cursor, newest first unless `view.oldestFirst`; with `view.visibleUntil`
   * only links stored by then (a lagging list).
   */
  listLinks(
    accountId: string,
    limit: number,
    after?: LinkCursor,
    view: { oldestFirst?: boolean; visibleUntil?: number } = {},
  ): { page: LinkRecord[]; hasMore: boolean } {
    if (view.oldestFirst || view.visibleUntil !== undefined) return this.listLinksViewed(accountId, limit, after, view);
    const mine = this.orderedOf(accountId).items;
    // Newest first: from the newest link older than the cursor (binary search), backwards.
    const end = after ? this.orderedOf(accountId).firstNotOlder(after) : mine.length;
    const start = Math.max(0, end - limit);
    return { page: mine.slice(start, end).reverse(), hasMore: start > 0 };
  }

  /** The slow path of listLinks for the quirks: filter by when stored, order either way, find the cursor linearly. */
  private listLinksViewed(
    accountId: string,
    limit: number,
    after: LinkCursor | undefined,
    view: { oldestFirst?: boolean; visibleUntil?: number },
  ): { page: LinkRecord[]; hasMore: boolean } {
    const until = view.visibleUntil;
    let mine = this.linksOf(accountId).filter((link) => until === undefined || (this.storedAt.get(link.id) ?? 0) <= until);
    if (view.oldestFirst) mine = [...mine].reverse();
    const direction = view.oldestFirst ? -1 : 1;
    const start = after ? mine.findIndex((link) => compareNewestFirst(link, after) * direction > 0) : 0;
    const from = start < 0 ? mine.length : start;
    return { page: mine.slice(from, from + limit), hasMore: mine.length > from + limit };
  }

  /**
   * Puts links into an account directly, without the API (for tests and benchmarks of large accounts):
   * `count` links, oldest first, `spacingMs` apart (0: all in one millisecond), the newest at `endAt`.
   */
  seedLinks(accountId: string, count: number, options: { spacingMs?: number; endAt?: number; label?: string } = {}): LinkRecord[] {
    this.account(accountId);
    const spacingMs = options.spacingMs ?? 1;
    const endAt = options.endAt ?? this.now();
    const label = options.label ?? 'seed';
    const made: LinkRecord[] = [];
    for (let i = 0; i < count; i++) {
      const id = this.nextId();
      const link: LinkRecord = {
        id,
        accountId,
        slug: `${label}-${id}`,
        targetUrl: `https://example.org/${label}/${i}`,
        title: `${label} ${i}`,
        domain: null,
        active: true,
        blocked: false,
        passwordHash: null,
        expiresAt: null,
        createdAt: new Date(endAt - (count - 1 - i) * spacingMs).toISOString(),
      };
      if (this.slugTaken(link.slug, null)) throw new Error(`seedLinks: the slug ${link.slug} is taken`);
      this.index(link);
      this.linksPerMonth.add(accountId, monthOf(link.createdAt), 1);
      made.push(link);
    }
    this.orderedOf(accountId).insertMany(made);
    this.onChange();
    return made;
  }

  updateLink(accountId: string, id: string, patch: UpdateLinkInput): LinkRecord {
    const link = this.link(accountId, id);
    if (patch.slug !== undefined && patch.slug !== link.slug && this.slugTaken(patch.slug, link.domain, link.id)) {
      throw problems.slugTaken(patch.slug, link.domain);
    }
    if (patch.targetUrl !== undefined) link.targetUrl = patch.targetUrl;
    if (patch.slug !== undefined && patch.slug !== link.slug) {
      this.linksBySlug.delete(Store.slugKey(link.domain, link.slug));
      link.slug = patch.slug;
      this.index(link);
    }
    if (patch.title !== undefined) link.title = patch.title;
    if (patch.active !== undefined) link.active = patch.active;
    if (patch.expiresAt !== undefined) link.expiresAt = patch.expiresAt === null ? null : normaliseTimestamp(patch.expiresAt);
    if (patch.password !== undefined) link.passwordHash = patch.password === null ? null : hashPassword(patch.password);
    this.onChange();
    return link;
  }

  deleteLink(accountId: string, id: string): void {
    const link = this.link(accountId, id);
    this.orderedOf(accountId).remove(link);
    this.linksPerMonth.add(accountId, monthOf(link.createdAt), -1);
    this.linksById.delete(link.id);
    this.storedAt.delete(link.id);
    this.linksBySlug.delete(Store.slugKey(link.domain, link.slug));
    for (const click of this.clicksOf(link.id)) this.clicksPerMonth.add(accountId, monthOf(click.at), -1);
    this.clicksByLink.delete(link.id);
    this.onChange();
  }

  /** Sets the service-only flag (abuse handling); for tests and the seed. */
  setBlocked(linkId: string, blocked: boolean): void {
    const link = this.linksById.get(linkId);
    if (!link) throw new Error(`No link with id ${linkId}`);
    link.blocked = blocked;
    this.onChange();
  }

  linkBySlug(domain: string | null, slug: string): LinkRecord | undefined {
    return this.linksBySlug.get(Store.slugKey(domain, slug));
  }

  // ---- clicks ----

  recordClick(click: ClickRecord): void {
    this.addClick(click);
    this.onChange();
  }

  /** Clicks on the account's links in the month of `at` (the usage figure of GET /me). */
  clicksInMonth(accountId: string, at: string): number {
    return this.clicksPerMonth.get(accountId, monthOf(at));
  }

  clicksOf(linkId: string): readonly ClickRecord[] {
    return this.clicksByLink.get(linkId) ?? [];
  }

  /** The full twelve-field link as the API shows it. */
  toLink(link: LinkRecord, baseUrl: string): Link {
    return {
      id: link.id,
      slug: link.slug,
      shortUrl: link.domain ? `https://${link.domain}/${link.slug}` : `${baseUrl}/${link.slug}`,
      targetUrl: link.targetUrl,
      title: link.title,
      domain: link.domain,
      active: link.active,
      blocked: link.blocked,
      hasPassword: link.passwordHash !== null,
      clicks: this.clicksOf(link.id).length,
      expiresAt: link.expiresAt,
      createdAt: link.createdAt,
    };
  }

  /** The account's links, newest first (a copy: for tests and the slow paths of the quirks). */
  linksOf(accountId: string): LinkRecord[] {
    return [...this.orderedOf(accountId).items].reverse();
  }
}
