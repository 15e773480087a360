import type { Bundle, ZObject } from 'zapier-platform-core';
import { AuthenticationError, DeadlineError, ForbiddenError, InputError, RateLimitError, SearchIncompleteError, ShortLinkError } from '@shortlink/core/portable';
import { errorLabels, DOMAIN_ADVICE, inFormWords, UPGRADE_ADVICE, type FieldLabels } from '@shortlink/core/host';
import { startStep, STEP_TIME_BUDGET_MS } from './stepBudget';
import { withSharedPacing } from './sharedPacing';

/** The delay Zapier is given when the core could not tell how long to wait (no Retry-After, no reset). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** A step that ran out of its time budget (a slow service) is tried again after this. */
const DEADLINE_RETRY_SECONDS = 30;

/** A lookup that stored what it read of a large account goes on this soon (linkIndex.ts). */
const SEARCH_RETRY_SECONDS = 10;

/** The core names API fields; people see the labels of the forms (the core's, the same on every host). */
const CONNECTION_LABELS = errorLabels();

const CONNECTION_FIELDS = new Set(['baseUrl', 'apiKey', 'utmPresets']);

/** What Zapier shows when the key is refused while the user is connecting (nothing to "reconnect" yet). */
export const FIRST_CONNECT_ADVICE =
  'Check the API Key: copy it again from the short-link dashboard, section "API" (a key is shown once only; create a new one if it is lost).';

/** What Zapier shows when a connection that worked is refused now: Zapier asks the user to reconnect. */
export const RECONNECT_ADVICE =
  'The key may have been revoked or deleted: create a new one in the dashboard, section "API", and reconnect this Short Link account with it.';

/** The explanation in the form's words: the service's detail (or the core's sentence), labels instead of API names. */
export function explanationOf(error: ShortLinkError, labels: FieldLabels = CONNECTION_LABELS): string {
  return inFormWords(error, labels).detail ?? error.message;
}

export interface ErrorContext {
  /** The connection test while the user connects the account (no connection exists yet to reconnect). */
  connecting?: boolean;
  /** The labels the step's errors name fields by (errorLabels of its operation's fields). */
  labels?: FieldLabels;
}

/**
 * The one place where the core's typed errors become Zapier errors. Every message comes from the core,
 * which builds it from the service's problem detail and never from the key, in the words of the form.
 */
export function toZapierError(z: ZObject, error: unknown, context: ErrorContext = {}): unknown {
  if (!(error instanceof ShortLinkError)) return error; // Zapier's own errors and bugs pass as they are
  const explanation = explanationOf(error, context.labels);
  if (error instanceof InputError) {
    // Nothing was sent: the sentence names the field by its label and says what is allowed.
    const where = CONNECTION_FIELDS.has(error.field) ? ' Edit the Short Link connection to correct it.' : '';
    return new z.errors.Error(`${explanation}${where}`, 'invalid_input', 400);
  }
  if (error instanceof AuthenticationError) {
    if (context.connecting) return new z.errors.Error(`${explanation} ${FIRST_CONNECT_ADVICE}`, 'authentication', error.status);
    // ExpiredAuthError tells Zapier the connection is dead: the user is asked to reconnect.
    return new z.errors.ExpiredAuthError(`${explanation} ${RECONNECT_ADVICE}`);
  }
  if (error instanceof RateLimitError) {
    const seconds = error.retryAfterMs === undefined
      ? DEFAULT_RETRY_AFTER_SECONDS
      : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new z.errors.ThrottledError(`${error.message} Zapier runs this step again in ${seconds} s.`, seconds);
  }
  // A search of a large account that could not finish in one step: what it read is stored, so Zapier's
  // retry goes on from there (never a "none", never a create on a guess).
  if (error instanceof SearchIncompleteError && error.resumable) {
    return new z.errors.ThrottledError(error.message, SEARCH_RETRY_SECONDS);
  }
  // Out of time before anything was half done: Zapier retries the step later instead of killing it at 30 s.
  // A create whose outcome is unknown is not retried blindly: its message says how to check.
  if (error instanceof DeadlineError && !error.outcomeUnknown) {
    return new z.errors.ThrottledError(
      `The service answered too slowly for this step to finish within its ${STEP_TIME_BUDGET_MS / 1000} s (Zapier allows 30 s a step); nothing was changed. Zapier runs it again in ${DEADLINE_RETRY_SECONDS} s.`,
      DEADLINE_RETRY_SECONDS,
    );
  }
  if (error instanceof ForbiddenError && error.reason === 'plan') {
    // The service's own words when it names the plan; the advice once, not twice.
    let message = UPGRADE_ADVICE;
    if (error.detail !== undefined) {
      message = /plan/i.test(error.detail) ? `${explanation} Upgrade the plan of this account, then try again.` : `${explanation} ${UPGRADE_ADVICE}`;
    }
    return new z.errors.Error(message, 'plan_required', error.status ?? 403);
  }
  if (error instanceof ForbiddenError && error.reason === 'domain') {
    return new z.errors.Error(`${explanation} ${DOMAIN_ADVICE}`, 'domain_not_allowed', error.status ?? 403);
  }
  const message = error.detail !== undefined ? `${error.title}: ${explanation}` : error.message;
  return new z.errors.Error(message, error.kind, error.status);
}

export type Perform<R = unknown> = (z: ZObject, bundle: Bundle) => Promise<R>;

/**
 * Wraps a perform so that its step's time budget starts with it, it starts from what the connection learned
 * of the rate limit (sharedPacing.ts), and whatever the core throws reaches Zapier as the matching z.errors class.
 */
export function withZapierErrors<R>(perform: Perform<R>, context: ErrorContext = {}): Perform<R> {
  return async (z, bundle) => {
    startStep(bundle); // the step's time budget counts from here (stepBudget.ts)
    try {
      return await withSharedPacing(z, bundle, () => perform(z, bundle));
    } catch (error) {
      throw toZapierError(z, error, context);
    }
  };
}
