/** Classifies what a transport threw when no answer came. */
import { NetworkError } from '../errors';
import { neverSent } from './retry-policy';

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'the service refused the connection (is the base URL right and the service running?)',
  ENOTFOUND: 'the host name of the base URL could not be resolved',
  EAI_AGAIN: 'the host name of the base URL could not be resolved (temporary DNS failure)',
  ECONNRESET: 'the connection was reset before an answer came',
  ETIMEDOUT: 'the request timed out',
  ECONNABORTED: 'the request was aborted (timeout)',
  ESOCKETTIMEDOUT: 'the request timed out',
  EPIPE: 'the connection closed while the request was being sent',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: "the service's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the service uses a self-signed TLS certificate',
  ERR_NETWORK: 'the network request failed',
  ERESPONSETOOLARGE: 'the answer was larger than any answer of this API should be, so it was not read (check the base URL)',
};

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** The error code of a transport failure: its `code`, else its `cause.code`, else UNKNOWN. */
export function networkCodeOf(thrown: unknown): string {
  const direct = codeOf(thrown);
  const cause = typeof thrown === 'object' && thrown !== null ? (thrown as { cause?: unknown }).cause : undefined;
  const nested = codeOf(cause);
  // axios reports ERR_NETWORK / ECONNABORTED itself; the socket's own code (in cause) is more precise.
  if (direct && direct.startsWith('ERR_') && nested) return nested;
  return direct ?? nested ?? 'UNKNOWN';
}

/** `timeoutMs`: set when the client's own time limit for the request ran out. */
export function networkError(thrown: unknown, method: string, url: string, timeoutMs?: number): NetworkError {
  const code = networkCodeOf(thrown);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw url
  }
  const description =
    timeoutMs !== undefined
      ? `no complete answer within ${Math.round(timeoutMs / 100) / 10} s`
      : (DESCRIPTIONS[code] ?? `no answer came (${thrownMessage(thrown)})`);
  // Refused, unresolved or a failed TLS handshake: nothing reached the service. Anything else may have.
  const outcomeUnknown = !neverSent(code) && !/CERT|SSL|TLS/i.test(code);
  // A create is never repeated by the core; retrying it blindly could make a duplicate link.
  const advice =
    outcomeUnknown && method.toUpperCase() === 'POST'
      ? ' The outcome is unknown: the link may have been created. Look it up by its target URL (Find, or Find or Create) before retrying.'
      : '';
  return new NetworkError({
    title: 'Network error',
    message: `Network error (${code}) on ${method} ${host}: ${description}.${advice}`,
    code,
    outcomeUnknown,
  });
}

function thrownMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  return typeof thrown === 'string' ? thrown : 'unknown failure';
}
