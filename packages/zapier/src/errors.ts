import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  AuthenticationError,
  DeadlineError,
  ForbiddenError,
  RateLimitError,
  SearchIncompleteError,
  ShortLinkError,
} from '@shortlink/core/portable';

/** The delay Zapier is given when the core could not tell how long to wait (no Retry-After, no reset). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** A step that ran out of its time budget (a slow service) is tried again after this. */
const DEADLINE_RETRY_SECONDS = 30;

/** A lookup that stored what it read of a large account goes on this soon (linkIndex.ts). */
const SEARCH_RETRY_SECONDS = 10;

export const PLAN_REQUIRED_MESSAGE =
  'API access needs the business plan or higher: upgrade the plan of this account, then try again.';

/**
 * The one place where the core's typed errors become Zapier errors. Every message comes from the core,
 * which builds it from the service's problem detail and never from the key.
 */
export function toZapierError(z: ZObject, error: unknown): unknown {
  if (!(error instanceof ShortLinkError)) return error; // Zapier's own errors and bugs pass as they are
  if (error instanceof AuthenticationError) {
    // ExpiredAuthError tells Zapier the connection is dead: the user must reconnect with a valid key.
    return new z.errors.ExpiredAuthError(
      `${error.message} Reconnect your Short Link account with a valid API key.`,
    );
  }
  if (error instanceof RateLimitError) {
    const seconds = error.retryAfterMs === undefined
      ? DEFAULT_RETRY_AFTER_SECONDS
      : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new z.errors.ThrottledError(error.message, seconds);
  }
  // A search of a large account that could not finish in one step: what it read is stored, so Zapier's
  // retry goes on from there (never a "none", never a create on a guess).
  if (error instanceof SearchIncompleteError && error.resumable) {
    return new z.errors.ThrottledError(error.message, SEARCH_RETRY_SECONDS);
  }
  // Out of time before anything was half done: Zapier retries the step later instead of killing it at 30 s.
  // A create whose outcome is unknown is not retried blindly: its message says how to check.
  if (error instanceof DeadlineError && !error.outcomeUnknown) {
    return new z.errors.ThrottledError(error.message, DEADLINE_RETRY_SECONDS);
  }
  // 403 also answers an unverified custom domain; only the plan case (told apart by the core from the
  // problem type) gets the upgrade advice.
  if (error instanceof ForbiddenError && error.reason === 'plan') {
    return new z.errors.Error(`${PLAN_REQUIRED_MESSAGE} (${error.message})`, 'plan_required', 403);
  }
  return new z.errors.Error(error.message, error.kind, error.status);
}

export type Perform<R = unknown> = (z: ZObject, bundle: Bundle) => Promise<R>;

/** Wraps a perform so that whatever the core throws reaches Zapier as the matching z.errors class. */
export function withZapierErrors<R>(perform: Perform<R>): Perform<R> {
  return async (z, bundle) => {
    try {
      return await perform(z, bundle);
    } catch (error) {
      throw toZapierError(z, error);
    }
  };
}
