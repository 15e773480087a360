/**
 * Hosts' transports differ in small ways (a Headers object instead of a record, mixed-case names, a JSON
 * body left as text). The seam asks for lower-case records and parsed JSON; this makes sure of it.
 */
import type { TransportResponse } from './transport';
import { parseBodyText } from '../basics/json';

export { parseBodyText };

type HeaderSource = Record<string, unknown> | { forEach(callback: (value: string, name: string) => void): void };

function hasForEach(value: unknown): value is { forEach(callback: (value: string, name: string) => void): void } {
  return typeof value === 'object' && value !== null && typeof (value as { forEach?: unknown }).forEach === 'function' && !Array.isArray(value);
}

/** Lower-case header names, one string per header, from a record, a Headers object or axios' headers. */
export function normalizeHeaders(raw: HeaderSource | undefined | null): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  if (!raw || typeof raw !== 'object') return headers;
  // axios' AxiosHeaders: its plain form comes from toJSON().
  const json = (raw as { toJSON?: unknown }).toJSON;
  if (typeof json === 'function' && !hasForEach(raw)) return normalizeHeaders(json.call(raw) as HeaderSource);
  if (hasForEach(raw)) {
    raw.forEach((value, name) => {
      headers[String(name).toLowerCase()] = String(value);
    });
    return headers;
  }
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** A JSON body the transport left as text is parsed (problem+json is often not recognised as JSON). */
function parsedBody(body: unknown, contentType: string | undefined): unknown {
  if (typeof body !== 'string' || !/json/i.test(contentType ?? '') || body === '') return body;
  return parseBodyText(body);
}

export function normalizeResponse(response: TransportResponse): TransportResponse {
  const headers = normalizeHeaders(response.headers as HeaderSource);
  return { status: Number(response.status), headers, body: parsedBody(response.body, headers['content-type']) };
}
