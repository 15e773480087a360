/**
 * Turns a non-2xx answer into the typed error. problem+json (RFC 9457) is read when present; any other
 * body (an HTML page from a proxy, empty, broken JSON) still gives a clear message with the status.
 */
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  FieldError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ShortLinkError,
  ShortLinkErrorInit,
  UnexpectedResponseError,
  ValidationError,
} from '../errors';
import { isKeyRefusal } from '../forbidden-reason';
import type { TransportResponse } from './transport';
import { isRecord } from '../basics/json';

const REASON_PHRASES: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number): string {
  const phrase = REASON_PHRASES[status];
  return phrase ? `${status} ${phrase}` : String(status);
}

/** The title used when the body carries none. */
function defaultTitle(status: number): string {
  if (status === 401) return 'Authentication failed';
  if (status === 402) return 'Payment required';
  if (status === 403) return 'Forbidden';
  if (status === 404 || status === 410) return 'Not found';
  if (status === 409) return 'Conflict';
  if (status === 422) return 'Validation failed';
  if (status === 429) return 'Rate limit exceeded';
  if (status >= 500) return 'Server error';
  if (status >= 400) return 'Bad request';
  return 'Unexpected response';
}

/** One sentence on why a body could not be read as JSON. */
export function describeUnreadableBody(body: unknown, contentType: string | undefined): string {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === '')) {
    return 'the service answered with an empty body.';
  }
  if (typeof body === 'string') {
    const looksLikeHtml = /^\s*<(!doctype|html|head|body|\?xml|[a-z]+[\s>])/i.test(body) || /html/i.test(contentType ?? '');
    if (looksLikeHtml) return 'the service answered with an HTML page instead of JSON.';
    if (/json/i.test(contentType ?? '')) return 'the service answered with broken JSON.';
    const excerpt = body.trim().replace(/\s+/g, ' ').slice(0, 120);
    return `the service answered with text instead of JSON: "${excerpt}".`;
  }
  return `the service answered with ${Array.isArray(body) ? 'an array' : typeof body} where an object was expected.`;
}


function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Longest piece of the service's own text echoed into a message (a 414 may echo a huge path). */
export const MAX_ECHO_LENGTH = 300;

/** Cuts a text the service sent to MAX_ECHO_LENGTH characters, marking the cut with '…'. */
export function capEcho(value: string): string {
  return value.length > MAX_ECHO_LENGTH ? `${value.slice(0, MAX_ECHO_LENGTH)}…` : value;
}

function sentence(value: string): string {
  return /[.!?]$/.test(value) ? value : `${value}.`;
}

/**
 * Per-field errors from the `errors` extension (the document's shape: [{ field, message }]), tolerant of
 * other common shapes: { pointer | name | path | param, detail | reason }, a map field → message(s),
 * and `invalid_params` (RFC 7807's example).
 */
export function readFieldErrors(problem: Record<string, unknown>): FieldError[] {
  const source = problem.errors ?? problem.invalid_params ?? problem.invalidParams ?? problem.fieldErrors;
  const out: FieldError[] = [];
  if (Array.isArray(source)) {
    for (const entry of source) {
      if (typeof entry === 'string') {
        out.push({ field: '', message: entry });
        continue;
      }
      if (!isRecord(entry)) continue;
      const rawField = entry.field ?? entry.name ?? entry.param ?? entry.path ?? entry.pointer ?? entry.property;
      const field = Array.isArray(rawField)
        ? rawField.join('.')
        : typeof rawField === 'string'
          ? rawField.replace(/^#?\//, '').replace(/\//g, '.')
          : '';
      const message = text(entry.message) ?? text(entry.detail) ?? text(entry.reason) ?? text(entry.title) ?? 'is invalid';
      out.push({ field, message });
    }
  } else if (isRecord(source)) {
    for (const [field, value] of Object.entries(source)) {
      const messages = Array.isArray(value) ? value : [value];
      for (const message of messages) out.push({ field, message: text(message) ?? 'is invalid' });
    }
  }
  return out;
}

export interface ErrorContext {
  /** Wait the service asked for on a 429, when known. */
  retryAfterMs?: number;
}

/** Maps one non-2xx answer to its error class. */
export function errorFromResponse(response: TransportResponse, context: ErrorContext = {}): ShortLinkError {
  const { status } = response;
  const body = response.body;
  const problem = isRecord(body) ? body : undefined;
  // Capped where read: hosts show title and detail on their own too (n8n's message and description).
  const rawTitle = text(problem?.title);
  const title = rawTitle !== undefined ? capEcho(rawTitle) : defaultTitle(status);
  const rawDetail = text(problem?.detail) ?? text(problem?.message) ?? text(problem?.error);
  const detail = rawDetail !== undefined ? capEcho(rawDetail) : undefined;
  const type = text(problem?.type);

  let message: string;
  if (problem) {
    message = detail ? `${title}: ${sentence(detail)}` : `${title} (${statusText(status)}).`;
  } else {
    message = `${defaultTitle(status)} (${statusText(status)}): ${describeUnreadableBody(body, response.headers['content-type'])}`;
  }
  const location = response.headers.location;
  if (status >= 300 && status < 400) {
    message = `Unexpected response (${statusText(status)}): the service redirected${location ? ` to ${capEcho(location)}` : ''}; check the base URL.`;
  }
  if (status === 429 && context.retryAfterMs !== undefined && !/retry/i.test(message)) {
    message = `${message} Retry in ${Math.ceil(context.retryAfterMs / 1000)} s.`;
  }

  const init: ShortLinkErrorInit = { title, message, status };
  if (type !== undefined) init.type = type;
  if (detail !== undefined) init.detail = detail;

  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  // Some services answer a key they do not accept with 403, and a plan without API access with 402.
  if (status === 403) return isKeyRefusal(init) ? new AuthenticationError(init) : new ForbiddenError(init);
  if (status === 402) return new ForbiddenError({ ...init, reason: 'plan' });
  if (status === 404 || status === 410) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 422) {
    const fieldErrors = problem ? readFieldErrors(problem) : [];
    if (fieldErrors.length > 0 && !detail) {
      init.message = `${title}: ${capEcho(fieldErrors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; '))}`;
    }
    return new ValidationError({ ...init, fieldErrors });
  }
  if (status === 429) {
    return context.retryAfterMs === undefined
      ? new RateLimitError(init)
      : new RateLimitError({ ...init, retryAfterMs: context.retryAfterMs });
  }
  if (status >= 500) return new ServerError(init);
  // Other 4xx (405, 413, 415, …): the request itself was not acceptable.
  if (status >= 400) return new BadRequestError(init);
  return new UnexpectedResponseError(init);
}

/** A 2xx answer with a body the client cannot use. */
export function unexpectedBody(response: TransportResponse, what: string, reason?: string): UnexpectedResponseError {
  const why = reason ?? describeUnreadableBody(response.body, response.headers['content-type']);
  return new UnexpectedResponseError({
    title: 'Unexpected response',
    status: response.status,
    message: `Unexpected response (${statusText(response.status)}) where ${what} was expected: ${why}`,
  });
}
