/**
 * The key never comes back out, even when the service sends it back: a proxy or a debugging endpoint that
 * echoes the request (`{"title": "Bearer sk_…"}`) would otherwise put it into records, notices and errors
 * that every host shows. The client knows the key, so the answer is cleaned once, here, right where it
 * arrives — before any operation, host or log sees it — and every host (n8n, Zapier, MCP) gets it clean.
 * Only the key itself is replaced: unlike `redact` for errors, ordinary words such as "Bearer" in a
 * link's title are the user's data and stay.
 */
import type { Transport, TransportResponse } from './transport';

export const REDACTED_ECHO = '[redacted]';

/** Secrets shorter than this would blank out ordinary words; real keys are long. */
const MIN_SECRET_LENGTH = 8;

function cleanText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED_ECHO);
  return out;
}

/** A copy of `value` with every secret in its strings (keys included) replaced; untouched parts are shared. */
export function withoutSecrets<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return cleanText(value, secrets) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const clean = withoutSecrets(item, secrets);
      changed ||= clean !== item;
      return clean;
    });
    return (changed ? items : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const cleanKey = cleanText(key, secrets);
      const clean = withoutSecrets(item, secrets);
      changed ||= clean !== item || cleanKey !== key;
      return [cleanKey, clean] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}

/** The transport with the key taken out of every answer's body and headers. */
export function redactingEchoes(transport: Transport, secrets: readonly string[]): Transport {
  const keys = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (keys.length === 0) return transport;
  return async (request): Promise<TransportResponse> => {
    const response = await transport(request);
    return { ...response, headers: withoutSecrets(response.headers, keys), body: withoutSecrets(response.body, keys) };
  };
}
