/**
 * Error classes of the client (docs/architecture.md). Every error a client method throws is one of
 * these; `message` reads well on its own and never contains the API key.
 */
import { forbiddenReasonOf, type ForbiddenReason } from './http/forbidden-reason';

export type ShortLinkErrorKind =
  | 'input'
  | 'bad_request'
  | 'authentication'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'deadline'
  | 'cancelled'
  | 'outcome_unknown'
  | 'search_incomplete'
  | 'quota'
  | 'unexpected_response';

export interface ShortLinkErrorInit {
  /** Short summary (problem+json `title`, or one chosen by the client). */
  title: string;
  /** The whole sentence shown to people. */
  message: string;
  status?: number;
  /** problem+json `type` URI. */
  type?: string;
  detail?: string;
}

export abstract class ShortLinkError extends Error {
  abstract readonly kind: ShortLinkErrorKind;
  readonly status?: number;
  readonly type?: string;
  title: string;
  detail?: string;

  constructor(init: ShortLinkErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.title = init.title;
    if (init.status !== undefined) this.status = init.status;
    if (init.type !== undefined) this.type = init.type;
    if (init.detail !== undefined) this.detail = init.detail;
  }
}

/** A client-side check failed; no request was sent. */
export class InputError extends ShortLinkError {
  readonly kind = 'input' as const;
  /** The offending field, e.g. `targetUrl` or `limit`. */
  readonly field: string;
  constructor(field: string, detail: string) {
    super({ title: 'Invalid input', message: detail, detail });
    this.field = field;
  }
}

export class BadRequestError extends ShortLinkError {
  readonly kind = 'bad_request' as const;
}

export class AuthenticationError extends ShortLinkError {
  readonly kind = 'authentication' as const;
}

/** 403: `reason` says whether the plan lacks API access or the domain is not verified (undefined: unknown). */
export class ForbiddenError extends ShortLinkError {
  readonly kind = 'forbidden' as const;
  readonly reason: ForbiddenReason | undefined;
  constructor(init: ShortLinkErrorInit & { reason?: ForbiddenReason }) {
    super(init);
    this.reason = init.reason ?? forbiddenReasonOf(init);
  }
}

export class NotFoundError extends ShortLinkError {
  readonly kind = 'not_found' as const;
}

export class ConflictError extends ShortLinkError {
  readonly kind = 'conflict' as const;
}

export interface FieldError {
  field: string;
  message: string;
}

export class ValidationError extends ShortLinkError {
  readonly kind = 'validation' as const;
  fieldErrors: FieldError[];
  constructor(init: ShortLinkErrorInit & { fieldErrors: FieldError[] }) {
    super(init);
    this.fieldErrors = init.fieldErrors;
  }
}

export class RateLimitError extends ShortLinkError {
  readonly kind = 'rate_limit' as const;
  /** How long to wait before trying again, when known. */
  readonly retryAfterMs?: number;
  constructor(init: ShortLinkErrorInit & { retryAfterMs?: number }) {
    super(init);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

export class ServerError extends ShortLinkError {
  readonly kind = 'server' as const;
}

/** No answer came (refused, reset, timed out, DNS). */
export class NetworkError extends ShortLinkError {
  readonly kind = 'network' as const;
  /** ECONNREFUSED, ECONNRESET, ETIMEDOUT, ECONNABORTED, … or UNKNOWN. */
  readonly code: string;
  /** True when the request may have reached the service before the answer was lost (reset, timeout). */
  readonly outcomeUnknown: boolean;
  constructor(init: ShortLinkErrorInit & { code: string; outcomeUnknown?: boolean }) {
    super(init);
    this.code = init.code;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

/**
 * The call used up its time limit (ClientOptions.callTimeoutMs) before it could finish: a slow service, or
 * retries that would not fit. Nothing is known to be left half done unless `outcomeUnknown` says so.
 */
export class DeadlineError extends ShortLinkError {
  readonly kind = 'deadline' as const;
  /** The limit that ran out, in ms. */
  readonly limitMs: number;
  /** True when a create was sent and its result could not be learned in time. */
  readonly outcomeUnknown: boolean;
  constructor(init: ShortLinkErrorInit & { limitMs: number; outcomeUnknown?: boolean }) {
    super(init);
    this.limitMs = init.limitMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

/**
 * A create was sent, its answer was lost (5xx, reset, timeout, unreadable), and looking for the link it may
 * have stored could not settle the question. The message says how to check before sending it again.
 */
export class UnknownOutcomeError extends ShortLinkError {
  readonly kind = 'outcome_unknown' as const;
}

/**
 * A lookup (find, find-or-create, a link by its short URL) could not search the whole account within its
 * time limit, so it cannot say that no link matches: it never answers "none" and never creates instead.
 * `resumable`: what was read is kept (the same run, or Zapier's cache) and the next attempt goes on from
 * there, so running the step again finishes the search.
 */
export class SearchIncompleteError extends ShortLinkError {
  readonly kind = 'search_incomplete' as const;
  /** Links read so far (in this attempt and the ones before it). */
  readonly linksSearched: number;
  readonly resumable: boolean;
  constructor(init: ShortLinkErrorInit & { linksSearched: number; resumable: boolean }) {
    super(init);
    this.linksSearched = init.linksSearched;
    this.resumable = init.resumable;
  }
}

/**
 * The plan's link quota does not allow this create, known before sending it (the run's pre-flight, or a
 * quota refusal earlier in the same run): nothing was sent for this item.
 */
export class PlanQuotaError extends ShortLinkError {
  readonly kind = 'quota' as const;
}

/** The caller cancelled the call (an n8n execution stopped, say): no further request was sent. */
export class CancelledError extends ShortLinkError {
  readonly kind = 'cancelled' as const;
  /** True when a write (a create, a change, a delete) had been sent and may have been carried out. */
  readonly outcomeUnknown: boolean;
  constructor(init: ShortLinkErrorInit & { outcomeUnknown?: boolean }) {
    super(init);
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

/** A 2xx (or 1xx/3xx) answer whose body the client cannot read. */
export class UnexpectedResponseError extends ShortLinkError {
  readonly kind = 'unexpected_response' as const;
}

const REDACTED = '[redacted]';

/** Removes the secrets (and anything that looks like a bearer token) from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "keys" would blank out ordinary words; real keys are long.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(/Bearer\s+[^\s"',;]*[^\s"',;.]/gi, `Bearer ${REDACTED}`);
}

/**
 * Defence in depth: whatever went into an error (a service echoing the header, a transport message),
 * the key must not come out of message, detail, title, stack or cause.
 */
export function scrubError<E extends Error>(error: E, secrets: readonly string[]): E {
  const target = error as E & { detail?: unknown; title?: unknown; type?: unknown; fieldErrors?: unknown; cause?: unknown };
  target.message = redact(target.message, secrets);
  // `type` is a URI the service chose; a service that echoes the request could put the key in it too.
  if (typeof target.type === 'string') target.type = redact(target.type, secrets);
  if (typeof target.stack === 'string') target.stack = redact(target.stack, secrets);
  if (typeof target.detail === 'string') target.detail = redact(target.detail, secrets);
  if (typeof target.title === 'string') target.title = redact(target.title, secrets);
  if (Array.isArray(target.fieldErrors)) {
    target.fieldErrors = (target.fieldErrors as FieldError[]).map((e) => ({
      field: redact(String(e.field), secrets),
      message: redact(String(e.message), secrets),
    }));
  }
  if ('cause' in target && target.cause !== undefined) {
    // A transport's cause may hold request config with the Authorization header: never keep it.
    delete target.cause;
  }
  return error;
}
