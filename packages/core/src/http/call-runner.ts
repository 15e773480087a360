/**
 * How every client call runs: within its own time budget (or the host's shared deadline when that comes
 * first), and with whatever escapes turned into a ShortLinkError without the API key.
 */
import { callBudget, narrowBudget, throwIfCancelled, type CallBudget, type CallScope } from './call-budget';
import { ShortLinkError, UnexpectedResponseError, scrubError } from '../errors';

export interface CallRunnerSettings {
  now: () => number;
  callTimeoutMs: number;
  secrets: readonly string[];
  sharedDeadline?: { atMs: number; limitMs: number };
  signal?: AbortSignal;
}

export class CallRunner {
  constructor(private readonly settings: CallRunnerSettings) {}

  async run<T>(body: (budget: CallBudget) => Promise<T>, scope?: CallScope): Promise<T> {
    try {
      const budget = narrowBudget(this.budgetOfCall(), scope);
      throwIfCancelled(budget);
      return await body(budget);
    } catch (error) {
      if (error instanceof ShortLinkError) throw scrubError(error, [...this.settings.secrets]);
      const wrapped = new UnexpectedResponseError({
        title: 'Unexpected failure',
        message: `Unexpected failure in the short-link client: ${error instanceof Error ? error.message : String(error)}`,
      });
      throw scrubError(wrapped, [...this.settings.secrets]);
    }
  }

  /** The call's own limit, or the shared deadline when that comes first (then its whole limit names it). */
  private budgetOfCall(): CallBudget {
    const { now, callTimeoutMs, signal, sharedDeadline } = this.settings;
    const own = callBudget(now(), callTimeoutMs, signal);
    if (sharedDeadline === undefined || sharedDeadline.atMs >= own.deadlineAt) return own;
    return { deadlineAt: sharedDeadline.atMs, limitMs: sharedDeadline.limitMs, signal };
  }
}
