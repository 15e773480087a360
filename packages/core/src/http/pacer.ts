/**
 * Proactive pacing shared by all calls of one client. It tracks the budget the service announces
 * (RateLimit-* headers) and counts requests in flight against it, so that when Remaining reaches 0 the
 * next call waits for the reset instead of provoking a 429. The budget check is serialised: N parallel
 * calls cannot all spend the last request. While the budget is unknown (first call, new window) one
 * request goes alone and its answer tells the rest.
 *
 * Other clients on the same key (other n8n executions, workers, Zaps) spend the same budget unseen. Their
 * share shows in the headers: Remaining drops by more than this client's own requests between two of its
 * answers. The requests they have on the way when this client reads "Remaining: r" land before its next
 * one, so the client leaves them that many (`reserve()`) and waits for the reset at r ≤ reserve, instead
 * of racing them for the last requests of the window and collecting a 429 (README, "Pacing with
 * concurrent clients", has the measurements).
 */
import { cancelledError, deadlineError, requestSignal, untilAborted, type CallBudget } from './call-budget';
import { RateLimitError } from '../errors';
import { parseRateLimitHeaders } from './rate-limit-headers';
import type { Sleep } from './transport';

export interface PacerOptions {
  now: () => number;
  sleep: Sleep;
  /** A needed wait above this throws RateLimitError instead of sleeping. */
  maxWaitMs: number;
  /** The service's clock minus ours, as learned from Date headers (for absolute reset times); undefined: unknown. */
  serviceOffsetMs?: () => number | undefined;
}

/** How the calling client waits: its sleep and the longest single wait it accepts. */
export interface PacerCaller {
  sleep: Sleep;
  maxWaitMs: number;
}

export interface PacingPermit {
  /** Call once the request ended: with the answer's headers, or without when no answer came. */
  settle(headers?: Record<string, string | undefined>, serviceOffsetMs?: number): void;
}

/** Two reset estimates further apart than this belong to different windows (Reset has 1 s granularity). */
const SAME_WINDOW_TOLERANCE_MS = 1000;
/**
 * Samples of the others' spending kept. The reserve is the smallest of them: a reserve too large leaves
 * requests of the window unspent by everyone (each client stops early), one too small costs a 429 that is
 * waited out; the smallest of the last three kept both near zero in the measurements.
 */
const OTHERS_SAMPLES_KEPT = 3;
/**
 * The window's last requests: a client that reads a Remaining this low and stops for the reserve still sends
 * once the others' requests on the way had time to land (`settleMs()`), instead of waiting for the reset.
 * Every request of a window is answered with its own Remaining, so at most this many readers per window can
 * do so: the 429s it can cost are bounded by it, while a request left unspent costs a whole window to the
 * run's last items (README, "Pacing with concurrent clients").
 */
const LAST_REQUESTS = 2;
/** Shortest wait for the others' requests on the way to land, before sending one of the window's last requests. */
const MIN_SETTLE_MS = 20;

/**
 * What a pacer has learned of the key's budget, as JSON, for a host whose units of work each get a new client
 * (Zapier: every step is its own invocation) to hand to the next one, so that it starts paced instead of
 * blind: its first request is not a probe, a spent window is waited out to its reset (not to a Retry-After
 * rounded up to the second), and the others' share is still known.
 */
export interface PacingState {
  v: 1;
  /** When it was learned (epoch ms). */
  atMs: number;
  remaining?: number;
  resetAtMs?: number;
  limit?: number;
  blockedUntilMs?: number;
  othersSamples: number[];
}

/** A non-negative whole number, or undefined. */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** A stored state as it came back (JSON from a cache): whatever is not a plausible number is dropped. */
export function readPacingState(raw: unknown): PacingState | undefined {
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== 1) return undefined;
  const value = raw as Record<string, unknown>;
  const atMs = count(value.atMs);
  if (atMs === undefined) return undefined;
  const state: PacingState = { v: 1, atMs, othersSamples: [] };
  const remaining = count(value.remaining);
  const resetAtMs = count(value.resetAtMs);
  if (remaining !== undefined && resetAtMs !== undefined) Object.assign(state, { remaining, resetAtMs });
  const limit = count(value.limit);
  if (limit !== undefined && limit > 0) state.limit = limit;
  const blockedUntilMs = count(value.blockedUntilMs);
  if (blockedUntilMs !== undefined) state.blockedUntilMs = blockedUntilMs;
  if (Array.isArray(value.othersSamples)) state.othersSamples = value.othersSamples.map(count).filter((n): n is number => n !== undefined).slice(-OTHERS_SAMPLES_KEPT);
  return state;
}

/**
 * The wait the service asks for does not fit: longer than any single wait may be (maxWaitMs), or longer than
 * what is left of the call's time limit (`leftMs`). Hosts retry later (Zapier: ThrottledError).
 */
export function waitTooLongError(waitMs: number, maxWaitMs: number, problem: { type?: string; detail?: string } = {}, leftMs?: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  const limit =
    leftMs !== undefined && leftMs < maxWaitMs
      ? `longer than this call may still wait (${Math.max(0, Math.floor(leftMs / 1000))} s of its time limit are left)`
      : `longer than this client may wait (${Math.round(maxWaitMs / 1000)} s)`;
  return new RateLimitError({
    ...problem,
    title: 'Rate limit reached',
    message: `Rate limit reached: the service accepts the next request in ${seconds} s, ${limit}. Try again later.`,
    status: 429,
    retryAfterMs: waitMs,
  });
}

export class RateLimitPacer {
  private tail: Promise<void> = Promise.resolve();
  private remaining: number | undefined;
  private resetAtMs: number | undefined;
  /** The window's size as the service announced it (RateLimit-Limit), once known. */
  private limit: number | undefined;
  /** Set from Retry-After: nobody sends before this. */
  private blockedUntilMs = 0;
  /** True once the service answered without rate-limit headers: then there is nothing to pace by. */
  private unmetered = false;
  /** Bumped at every window reset, so that late answers from the old window are ignored. */
  private epoch = 0;
  /** Requests let go so far, numbered in sending order. */
  private sent = 0;
  /** The latest answer of this window: its Remaining and the number of the request it answered. */
  private lastAnswer: { remaining: number; seq: number } | undefined;
  /** Requests of other clients that landed between two answers of ours, latest last. */
  private othersSamples: number[] = [];
  /** How long the latest answered request took, sending to answer: how long others' requests are on the way. */
  private roundTripMs = 0;

  /** When this pacer last learned something (an answer's headers, a 429's wait, a restored state). */
  private learnedAtMs = 0;

  constructor(private readonly options: PacerOptions) {}

  /** What this pacer knows, for the next client on the key (PacingState). */
  exportState(): PacingState {
    const state: PacingState = { v: 1, atMs: this.learnedAtMs, othersSamples: [...this.othersSamples] };
    if (this.remaining !== undefined && this.resetAtMs !== undefined) Object.assign(state, { remaining: Math.max(0, this.remaining), resetAtMs: this.resetAtMs });
    if (this.limit !== undefined) state.limit = this.limit;
    if (this.blockedUntilMs > 0) state.blockedUntilMs = this.blockedUntilMs;
    return state;
  }

  /**
   * Starts from what an earlier client learned (a new pacer only; anything learned since wins). A window
   * that has reset since is forgotten; the others' share and the window's size are kept.
   */
  restoreState(raw: unknown): void {
    const state = readPacingState(raw);
    if (!state || this.learnedAtMs > 0 || this.sent > 0) return;
    const now = this.options.now();
    this.othersSamples = state.othersSamples;
    if (state.limit !== undefined) this.limit = state.limit;
    if (state.blockedUntilMs !== undefined && state.blockedUntilMs > now) this.blockedUntilMs = state.blockedUntilMs;
    if (state.remaining !== undefined && state.resetAtMs !== undefined && state.resetAtMs > now) {
      this.remaining = state.remaining;
      this.resetAtMs = state.resetAtMs;
    }
    this.learnedAtMs = state.atMs;
  }

  /**
   * Waits until a request may be sent, within the call's budget: its turn behind the calls before it (which
   * may be waiting for an answer) and the budget the service announced. Throws RateLimitError when the wait
   * does not fit, DeadlineError when the call's time runs out in the queue, CancelledError when cancelled.
   */
  async acquire(budget: CallBudget, caller: PacerCaller = this.options): Promise<PacingPermit> {
    const previous = this.tail;
    let unlock!: () => void;
    this.tail = new Promise<void>((resolve) => (unlock = resolve));
    let held = true;
    const release = (): void => {
      if (held) {
        held = false;
        unlock();
      }
    };
    try {
      await this.waitForTurn(previous, budget);
    } catch (error) {
      // Leaving the queue early: the calls behind this one still go in order, once the one before is done.
      void previous.then(release);
      throw error;
    }
    try {
      await this.waitForBudget(budget, caller);
    } catch (error) {
      release();
      throw error;
    }
    const epoch = this.epoch;
    const seq = ++this.sent;
    const sentAt = this.options.now();
    if (this.remaining !== undefined) {
      this.remaining -= 1;
      release();
    } else if (this.unmetered) {
      release();
    }
    // Otherwise this is the probe: the lock stays held until its answer arrives.
    return {
      settle: (headers, serviceOffsetMs) => {
        if (headers) this.roundTripMs = this.options.now() - sentAt;
        if (headers && epoch === this.epoch) this.update(headers, seq, serviceOffsetMs);
        release();
      },
    };
  }

  /** The calls before this one (a probe waiting for its answer among them), bounded by the call's deadline. */
  private async waitForTurn(previous: Promise<void>, budget: CallBudget): Promise<void> {
    const leftMs = budget.deadlineAt - this.options.now();
    if (leftMs <= 0) throw deadlineError(budget, 'waiting for the other requests of this client');
    const { signal } = requestSignal(budget, leftMs);
    try {
      await untilAborted(previous, signal);
    } catch {
      if (budget.signal?.aborted) throw cancelledError();
      throw deadlineError(budget, 'waiting for the other requests of this client');
    }
  }

  /**
   * A 429 asked everyone to wait this long. Retry-After counts whole seconds, rounded up: when it names the
   * reset this pacer already knows more precisely (the earliest of its answers' estimates, none of which
   * can be before the real reset, since every Reset is rounded up too), the wait ends there. Other clients
   * on the key know the reset that precisely; one that woke up to a second after them would find the new
   * window spent again, and again.
   */
  blockFor(ms: number): void {
    const now = this.options.now();
    let until = now + ms;
    const reset = this.resetAtMs;
    if (reset !== undefined && reset > now && reset <= until && until - reset < SAME_WINDOW_TOLERANCE_MS) until = reset;
    this.blockedUntilMs = Math.max(this.blockedUntilMs, until);
    this.learnedAtMs = now;
  }

  /**
   * Requests of the window left to the other clients on the key: as many as recently landed between two
   * answers of ours (the smallest of the last samples), at most half the window. 0 while nobody else spends.
   */
  reserve(): number {
    if (this.othersSamples.length === 0) return 0;
    const others = Math.min(...this.othersSamples);
    return this.limit === undefined ? others : Math.min(others, Math.floor(this.limit / 2));
  }

  /** Current view of the budget, for diagnostics and tests. */
  snapshot(): { remaining?: number; resetAtMs?: number; limit?: number; blockedUntilMs: number; reserve: number } {
    const out: { remaining?: number; resetAtMs?: number; limit?: number; blockedUntilMs: number; reserve: number } = { blockedUntilMs: this.blockedUntilMs, reserve: this.reserve() };
    if (this.remaining !== undefined) out.remaining = this.remaining;
    if (this.limit !== undefined) out.limit = this.limit;
    if (this.resetAtMs !== undefined) out.resetAtMs = this.resetAtMs;
    return out;
  }

  private expireWindow(now: number): void {
    if (this.resetAtMs !== undefined && now >= this.resetAtMs) {
      this.remaining = undefined;
      this.resetAtMs = undefined;
      this.epoch += 1;
    }
  }

  /** The waits are the calling client's (one pacer may serve several clients of a key in a process). */
  private async waitForBudget(budget: CallBudget, caller: PacerCaller): Promise<void> {
    let settled = false;
    for (;;) {
      let settledNow = false;
      const now = this.options.now();
      this.expireWindow(now);
      let until = this.blockedUntilMs;
      const held = this.remaining !== undefined && this.remaining <= this.reserve() && this.resetAtMs !== undefined;
      // After the settle wait, one of the window's last requests goes, unless the count ran out meanwhile.
      if (held && !(settled && this.remaining! > 0)) {
        const last: boolean = !settled && this.isLastRequests(now);
        until = Math.max(until, last ? now + this.settleMs() : this.resetAtMs!);
        settled ||= last;
        settledNow = last && until === now + this.settleMs();
      }
      const waitMs = until - now;
      if (waitMs <= 0) return;
      const leftMs = budget.deadlineAt - now;
      if (waitMs > caller.maxWaitMs || waitMs > leftMs) throw waitTooLongError(waitMs, caller.maxWaitMs, {}, leftMs);
      try {
        await caller.sleep(waitMs, budget.signal);
      } catch (error) {
        if (budget.signal?.aborted) throw cancelledError();
        throw error;
      }
      // Only the settle wait is looked at again; after the wait for a reset or a Retry-After the request goes
      // (a host's sleep may end early: it is not waited again and again).
      if (!settledNow) {
        this.expireWindow(this.options.now());
        return;
      }
    }
  }

  /**
   * Remaining is down to the window's last requests (but not 0), and the reset is further away than the
   * others' requests on the way need to land. The reserve leaves these to the others; but near a window's
   * end the others stop too, each leaving them to the rest, and when nobody is left on the way they stay
   * unspent: then 600 creates, exactly five windows, need a sixth for their last item.
   */
  private isLastRequests(now: number): boolean {
    const remaining = this.remaining ?? 0;
    return remaining > 0 && remaining <= LAST_REQUESTS && this.resetAtMs !== undefined && this.resetAtMs - now > this.settleMs();
  }

  /** Time for the others' requests on the way to land: two of our round trips, at least MIN_SETTLE_MS. */
  private settleMs(): number {
    return Math.max(MIN_SETTLE_MS, 2 * this.roundTripMs);
  }

  /**
   * Between our previous answer (request `last.seq`) and this one (request `seq`) the service counted our
   * requests sent in between, `seq - last.seq`; whatever else Remaining dropped by, others spent. An answer
   * overtaken by a later one (concurrent calls) tells nothing new.
   */
  private sampleOthers(remaining: number, seq: number): void {
    const last = this.lastAnswer;
    if (last && seq <= last.seq) return;
    if (last) {
      this.othersSamples.push(Math.max(0, last.remaining - remaining - (seq - last.seq)));
      if (this.othersSamples.length > OTHERS_SAMPLES_KEPT) this.othersSamples.shift();
    }
    this.lastAnswer = { remaining, seq };
  }

  private update(headers: Record<string, string | undefined>, seq: number, serviceOffsetMs = this.options.serviceOffsetMs?.()): void {
    const now = this.options.now();
    const info = parseRateLimitHeaders(headers, now, serviceOffsetMs);
    this.learnedAtMs = now;
    if (info.remaining === undefined) {
      this.unmetered = this.remaining === undefined;
      return;
    }
    this.unmetered = false;
    if (info.limit !== undefined) this.limit = info.limit;
    const sameWindow =
      this.remaining !== undefined &&
      this.resetAtMs !== undefined &&
      info.resetAtMs !== undefined &&
      info.resetAtMs <= this.resetAtMs + SAME_WINDOW_TOLERANCE_MS;
    if (sameWindow) {
      // Answers of requests sent earlier report more than is left: keep the lower count and reset.
      this.remaining = Math.min(this.remaining!, info.remaining);
      this.resetAtMs = Math.min(this.resetAtMs!, info.resetAtMs!);
    } else {
      // A new window: the previous answer's Remaining belonged to the old one. The samples stay: they are
      // about the others, not about a window.
      this.remaining = info.remaining;
      this.resetAtMs = info.resetAtMs;
      this.lastAnswer = undefined;
    }
    this.sampleOthers(info.remaining, seq);
  }
}
