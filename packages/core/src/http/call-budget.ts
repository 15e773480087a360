/**
 * The time limit and cancel signal of one client call: a method of ShortLinkClient with every request,
 * pacing wait, retry and lookup it makes. Hosts with a hard limit (Zapier: 30 s a step) set the limit;
 * hosts with a stop button (n8n) pass its signal. No timers here: `AbortSignal.timeout` is the clock, so the
 * portable core stays free of timer globals.
 */
import { CancelledError, DeadlineError } from '../errors';

export interface CallBudget {
  /** Epoch ms by which the call must have ended. */
  deadlineAt: number;
  /** The call's whole limit, for messages. */
  limitMs: number;
  /** The caller's cancel signal, if any. */
  signal: AbortSignal | undefined;
}

export function callBudget(now: number, limitMs: number, signal: AbortSignal | undefined): CallBudget {
  return { deadlineAt: now + limitMs, limitMs, signal };
}

export function cancelledError(): CancelledError {
  return new CancelledError({ title: 'Cancelled', message: 'The call was cancelled (the run was stopped) before it finished.' });
}

/** Cancelled while a write was on its way: it may have been carried out. */
export function cancelledWriteError(method: string, path: string): CancelledError {
  return new CancelledError({
    title: 'Cancelled',
    message: `The call was cancelled (the run was stopped) while ${method} ${path} was on its way: the service may have carried it out.`,
    outcomeUnknown: true,
  });
}

/**
 * A limit and a cancel signal laid over every call of a client for one run of an operation (the host's
 * Stop button, an MCP cancellation, a tool's whole-call limit): each call ends by the earliest deadline and
 * on the first signal.
 */
export interface CallScope {
  signal?: AbortSignal;
  /** Epoch ms. */
  deadlineAt?: number;
  /** The whole limit the deadline stands for, for messages. */
  limitMs?: number;
}

/** The budget narrowed by a scope: its deadline if earlier, both signals. */
export function narrowBudget(budget: CallBudget, scope: CallScope | undefined): CallBudget {
  if (scope === undefined) return budget;
  const signals = [budget.signal, scope.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
  if (scope.deadlineAt !== undefined && scope.deadlineAt < budget.deadlineAt) {
    return { deadlineAt: scope.deadlineAt, limitMs: scope.limitMs ?? budget.limitMs, signal };
  }
  return { ...budget, signal };
}

export function throwIfCancelled(budget: CallBudget): void {
  if (budget.signal?.aborted) throw cancelledError();
}

export function deadlineError(budget: CallBudget, doing: string, outcomeUnknown = false): DeadlineError {
  const seconds = Math.round(budget.limitMs / 100) / 10;
  return new DeadlineError({
    title: 'Time limit reached',
    message: `The call did not finish within its time limit of ${seconds} s (${doing}). Try again later.`,
    limitMs: budget.limitMs,
    outcomeUnknown,
  });
}

/**
 * A signal for one request: fires after `ms`, or as soon as the caller cancels. `timedOut()` tells the two
 * apart afterwards.
 */
export function requestSignal(budget: CallBudget, ms: number): { signal: AbortSignal; timedOut: () => boolean } {
  const timer = AbortSignal.timeout(Math.max(1, Math.floor(ms)));
  const signal = budget.signal ? AbortSignal.any([budget.signal, timer]) : timer;
  return { signal, timedOut: () => timer.aborted && !budget.signal?.aborted };
}

/**
 * Settles with `promise`, or rejects as soon as `signal` fires, whichever is first: a transport that ignores
 * the signal cannot hold the call (or, through the pacer, every other call of the client) beyond it.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
