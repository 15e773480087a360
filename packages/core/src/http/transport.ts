/**
 * The seam between the core and a host (docs/architecture.md). The core builds requests; the host's
 * transport sends them and adds authentication. A transport never throws for an HTTP status, only when
 * no answer came; such throws carry a `code` (or `cause.code`) such as ECONNREFUSED.
 *
 * Rules every transport keeps (the core cannot check them from outside):
 * - **Never follow a redirect.** A 3xx goes back to the core as it came; following it would send the API key
 *   (and a create's body) to whatever address the answer names.
 * - **Honour `signal`** (it fires at `timeoutMs` and when the run is cancelled): a server that trickles bytes
 *   must not keep a request open. The core also stops waiting at that moment, whatever the transport does.
 * - **Refuse answers larger than `maxResponseBytes`** while reading them, throwing a failure with
 *   `code: 'ERESPONSETOOLARGE'`, instead of holding hundreds of megabytes in memory.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  /** Absolute: baseUrl + '/api/v1' + path (+ query string already applied). */
  url: string;
  /** '/links/123', ids already path-encoded. */
  path: string;
  /** Informational; already in url. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Accept, Content-Type (when body); never Authorization. */
  headers: Record<string, string>;
  /** JSON value; the transport serialises it. */
  body?: unknown;
  /** Whole-request limit in ms (connect, send, wait and read), not an idle timeout. */
  timeoutMs: number;
  /** Fires at timeoutMs or when the caller cancels; pass it to the HTTP client. */
  signal: AbortSignal;
  /** Largest answer body to read, in bytes. */
  maxResponseBytes: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON when it parses, else the raw text, '' / undefined when empty. */
  body: unknown;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * Waits the given milliseconds. Hosts pass their own (timers are not allowed everywhere). When `signal`
 * fires the wait should end early (rejecting); a sleep that cannot do that still works, only later.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
