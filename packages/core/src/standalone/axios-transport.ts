/**
 * The standalone transport (scripts, tests, benchmarks): axios with the Bearer header. Statuses never
 * throw (validateStatus), the body is read as text and parsed here, so an HTML page or broken JSON
 * reaches the core's error mapping intact. A failure without answer is rethrown as a plain error with
 * only `code` and a message: axios' own error holds the request config, Authorization header included.
 * Redirects are never followed (maxRedirects 0): the 3xx reaches the core, which names its Location.
 * axios' own `timeout` only fires on an idle socket; the request's signal ends a trickling answer too.
 */
import axios, { AxiosError } from 'axios';
import type { Transport, TransportResponse } from '../http/transport';
import { normalizeHeaders, parseBodyText } from '../http/response-normalizer';

export interface AxiosTransportOptions {
  apiKey: string;
  /** Idle-socket timeout per request; default 30 s (the core's signal bounds the whole request). */
  timeoutMs?: number;
  /** Sent as User-Agent. */
  userAgent?: string;
}

/** A failure without an answer, classified by `code` (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …). */
export class TransportFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransportFailure';
  }
}



function failureCode(error: unknown): string {
  const axiosError = error as AxiosError & { cause?: { code?: string } };
  // axios reports a body over maxContentLength as ERR_BAD_RESPONSE with this message.
  if (/maxContentLength/.test(axiosError.message ?? '')) return 'ERESPONSETOOLARGE';
  const causeCode = axiosError.cause?.code;
  // axios says ECONNABORTED for its own timeout; the socket code (in cause) is more precise when present.
  if (causeCode && (!axiosError.code || axiosError.code.startsWith('ERR_'))) return causeCode;
  return axiosError.code ?? causeCode ?? 'UNKNOWN';
}

export function createAxiosTransport(options: AxiosTransportOptions): Transport {
  const instance = axios.create({
    timeout: options.timeoutMs ?? 30_000,
    validateStatus: () => true,
    responseType: 'text',
    // Keep the raw text: the core decides what an unreadable body means.
    transformResponse: [(data: unknown) => data],
    maxRedirects: 0,
  });
  // Sent trimmed (a key pasted with a newline); the core scrubs both forms from its errors.
  const authorization = `Bearer ${options.apiKey.trim()}`;
  return async (request): Promise<TransportResponse> => {
    const headers: Record<string, string> = { ...request.headers, Authorization: authorization };
    if (options.userAgent) headers['User-Agent'] = options.userAgent;
    try {
      const response = await instance.request<string>({
        method: request.method,
        url: request.url,
        headers,
        data: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal,
        maxContentLength: request.maxResponseBytes,
      });
      const text = typeof response.data === 'string' ? response.data : response.data == null ? '' : String(response.data);
      return { status: response.status, headers: normalizeHeaders(response.headers as Record<string, unknown>), body: parseBodyText(text) };
    } catch (error) {
      const code = failureCode(error);
      const message = error instanceof Error ? error.message.split(options.apiKey.trim()).join('[redacted]') : 'request failed';
      throw new TransportFailure(code, `${request.method} ${request.url} failed: ${message}`);
    }
  };
}
