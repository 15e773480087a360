/**
 * The requests of one trigger poll, within its limits: at most `maxRequests`, none after `shouldStop` says
 * the poll's time is up or the rate limit's window is low (asked before every request but the first), and
 * an out-of-budget failure after the first answer ends the poll normally instead of failing it. Every
 * trigger event (new links, link clicks) sends its requests through one of these.
 */
import { InputError } from '../errors';

export interface PollRequestLimits {
  /** Requests per poll at most. */
  maxRequests: number;
  /** Asked before every request but the poll's first: true ends the poll there. */
  shouldStop?: () => boolean;
  /** True for an error that only says the poll's time or rate budget ran out (not that anything is wrong). */
  isOutOfBudget?: (error: unknown) => boolean;
}

/** A poll's numeric limit (requests, items): a whole number from 1 to `max`, `fallback` when not given. */
export function checkPollLimit(value: unknown, field: string, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InputError(field, `${field} must be a whole number from 1 to ${max}.`);
  }
  return value;
}

/** Statuses with which a service refuses a cursor it issued earlier (expired, unknown). */
const CURSOR_REFUSED = new Set([400, 404, 410, 422]);

export type PollAnswer<T> = { kind: 'answer'; value: T } | { kind: 'stop' } | { kind: 'refused'; reason: string };

export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export function describeFailure(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return status === undefined ? message : `${status}: ${message}`;
}

export class PollRequests {
  count = 0;

  constructor(readonly limits: PollRequestLimits) {}

  /** Whether another request may be sent in this poll. */
  canSend(): boolean {
    if (this.count >= this.limits.maxRequests) return false;
    return this.count === 0 || this.limits.shouldStop?.() !== true;
  }

  /**
   * The answer, or 'stop' when the poll's limits end it here, or 'refused' when `savedCursor` is set and
   * the service refuses the request as it refuses a cursor it no longer knows (the caller starts over).
   */
  async send<T>(request: () => Promise<T>, savedCursor = false): Promise<PollAnswer<T>> {
    if (!this.canSend()) return { kind: 'stop' };
    try {
      const value = await request();
      this.count++;
      return { kind: 'answer', value };
    } catch (error) {
      if (savedCursor && CURSOR_REFUSED.has(statusOf(error) ?? 0)) {
        this.count++;
        return { kind: 'refused', reason: describeFailure(error) };
      }
      if (this.count > 0 && this.limits.isOutOfBudget?.(error) === true) return { kind: 'stop' };
      throw error;
    }
  }
}
