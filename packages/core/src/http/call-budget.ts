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
