/**
 * The seam between the core and a host (docs/architecture.md). The core builds requests; the host's
 * transport sends them and adds authentication. A transport never throws for an HTTP status, only when
 * no answer came; such throws carry a `code` (or `cause.code`) such as ECONNREFUSED.
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
}

export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON when it parses, else the raw text, '' / undefined when empty. */
  body: unknown;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Waits the given milliseconds. Hosts pass their own (timers are not allowed everywhere). */
export type Sleep = (ms: number) => Promise<void>;
