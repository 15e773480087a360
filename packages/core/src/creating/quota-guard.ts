/**
 * The plan's link quota across one run (n8n: the items of an execution; Zapier: a step, with the
 * connection's cached usage). Before the first create the account's usage and quota are read once
 * (GET /me); then every create takes one of the links left, and a quota refusal from the service ends
 * all further creates of the run at once — one request, not one per remaining item.
 */
import { ForbiddenError, PlanQuotaError } from '../errors';
import { isRecord } from '../basics/json';
import type { Account } from '../types';

/** What to do when the run needs more links than the plan has left. */
export type QuotaPolicy = 'stopBeforeCreating' | 'createWhatFits';

export interface QuotaReading {
  quota: number;
  used: number;
}

/** The quota and this period's usage from the account record, or undefined when the service shows none. */
export function readLinkQuota(account: Account | Record<string, unknown>): QuotaReading | undefined {
  const plan = (account as Record<string, unknown>).plan;
  const usage = (account as Record<string, unknown>).usage;
  if (!isRecord(plan) || !isRecord(usage)) return undefined;
  const quota = plan.linkQuota;
  const used = usage.links;
  if (typeof quota !== 'number' || !Number.isFinite(quota) || typeof used !== 'number' || !Number.isFinite(used)) return undefined;
  return { quota, used };
}

/** The guard's state, plain JSON so that a host can keep it between invocations (Zapier's cache). */
export interface QuotaState {
  /** Links left this period by the last reading, less the creates since; null: the service shows no quota. */
  left: number | null;
  /** A quota refusal was seen: no further create is sent. */
  exhausted: boolean;
  /** Creates this run has made. */
  created: number;
  /** Why the run stopped before creating anything (every row of the run is told the same). */
  stoppedBecause?: string;
  /** When the service refused a create for quota (epoch ms): later runs on the same cache are told when. */
  refusedAt?: number;
}

/** How long a cache keeps a run's quota state (Zapier: between steps; MCP: between calls). */
export const QUOTA_MEMORY_MINUTES = 10;

export interface QuotaStore {
  load(): Promise<QuotaState | undefined>;
  save(state: QuotaState): Promise<void>;
}

export class QuotaGuard {
  constructor(
    private readonly store: QuotaStore,
    private readonly readAccount: () => Promise<Account>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Called before each create. The first call of a run reads the account; `plannedCreates` is the most the
   * run can create (its rows less `rowsWithLink`, those Find or Create found with a link before this one). Returns a notice the first time when no pre-flight was possible. Throws PlanQuotaError
   * (nothing sent) when the policy stops the run or no link is left.
   */
  async beforeCreate(plannedCreates: number, policy: QuotaPolicy, rowsWithLink = 0): Promise<string | undefined> {
    const stored = await this.store.load();
    if (stored?.stoppedBecause) throw new PlanQuotaError({ title: 'Not enough links left in the plan', message: stored.stoppedBecause });
    if (!stored && plannedCreates <= 1) {
      // A run of one create (a Zapier step, an agent's call, a one-item execution): the service's own answer
      // is the check, at no extra request and with nothing stored; a quota refusal is remembered for the
      // creates that follow on the same cache (afterFailedCreate).
      return undefined;
    }
    let notice: string | undefined;
    let state = stored;
    if (!state) {
      const reading = readLinkQuota(await this.readAccount());
      const left = reading ? Math.max(0, reading.quota - reading.used) : null;
      state = { left, exhausted: false, created: 0 };
      if (!reading) notice = 'The service shows no link quota for this account, so no pre-flight check was possible; links are created until the service refuses one.';
      else if (policy === 'stopBeforeCreating' && left !== null && plannedCreates > left) {
        const found = rowsWithLink > 0 ? ` (${rowsWithLink} of its rows already had one)` : '';
        state.stoppedBecause = `This run creates up to ${plannedCreates} links${found}; the plan has ${left} left this month (${reading.used} of ${reading.quota} used). Nothing was created. Run fewer rows, or choose "Create What Fits" under "When the Link Quota Runs Out".`;
        await this.store.save(state);
        throw new PlanQuotaError({ title: 'Not enough links left in the plan', message: state.stoppedBecause });
      }
    }
    if (state.exhausted || (state.left !== null && state.left <= 0)) {
      // A stored state is kept as it is: saving it again would put off the time it is forgotten.
      if (!stored) await this.store.save(state);
      throw new PlanQuotaError({
        title: 'Plan quota reached',
        message: `The plan's links for this month are used up${state.created > 0 ? ` after ${state.created} created in this run` : ''}; this row was not sent. ${retryAdvice(state)}`,
      });
    }
    if (state.left !== null) state.left -= 1;
    state.created += 1;
    await this.store.save(state);
    return notice;
  }

  /** After a create failed: a quota refusal ends the run's creates; a known refusal gives its link back. */
  async afterFailedCreate(error: unknown, nothingStored: boolean): Promise<void> {
    const quotaRefusal = error instanceof ForbiddenError && error.reason === 'quota';
    const state = (await this.store.load()) ?? (quotaRefusal ? { left: null, exhausted: false, created: 0 } : undefined);
    if (!state) return;
    if (quotaRefusal) {
      state.exhausted = true;
      state.left = 0;
      state.refusedAt = this.now();
    } else if (nothingStored && state.left !== null) {
      state.left += 1;
    }
    if (nothingStored) state.created = Math.max(0, state.created - 1);
    await this.store.save(state);
  }
}

/** How the user goes on; when the refusal was remembered from an earlier run, when it will be tried again. */
function retryAdvice(state: QuotaState): string {
  const rerun = 'Rerun it next month or after raising the quota: Find or Create continues without making any link twice.';
  if (state.refusedAt === undefined || state.created > 0) return rerun;
  const at = new Date(state.refusedAt).toISOString().slice(11, 16);
  return `The service refused a new link at ${at} UTC; for up to ${QUOTA_MEMORY_MINUTES} minutes after that, new links are not sent. ${rerun}`;
}
