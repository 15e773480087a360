/**
 * Reads an answer body as text, refusing it once it grows past a cap (a transport rule, transport.ts):
 * for hosts whose HTTP helper hands over a stream (n8n with `encoding: 'stream'`, fetch's body).
 */

/** Thrown by a transport when an answer is larger than TransportRequest.maxResponseBytes. */
export class ResponseTooLargeError extends Error {
  readonly code = 'ERESPONSETOOLARGE';
  constructor(maxBytes: number) {
    super(`The answer is larger than ${maxBytes} bytes; it was not read.`);
    this.name = 'ResponseTooLargeError';
  }
}

type Chunk = Uint8Array | string;

/** Whether a helper handed over a stream (anything async-iterable) rather than a finished body. */
export function isBodyStream(body: unknown): body is AsyncIterable<Chunk> {
  return typeof body === 'object' && body !== null && typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/**
 * The whole body as UTF-8 text, or ResponseTooLargeError once more than `maxBytes` arrived. When `signal`
 * fires (the request's time is up, or the run was stopped) the stream is destroyed and the read ends: a
 * host whose HTTP helper does not take the request's own signal (n8n puts its execution signal in its
 * place) still cannot keep reading a trickling answer.
 */
export async function readBodyText(
  body: AsyncIterable<Chunk> & { destroy?: (error?: Error) => void },
  maxBytes: number,
  signal?: AbortSignal,
): Promise<string> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let size = 0;
  let text = '';
  const stop = (): void =>
    body.destroy?.(signal?.reason instanceof Error ? signal.reason : new Error('The request was aborted while its answer was being read.'));
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > maxBytes) {
        body.destroy?.();
        throw new ResponseTooLargeError(maxBytes);
      }
      text += decoder.decode(bytes, { stream: true });
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (signal?.aborted) throw signal.reason;
  return text + decoder.decode();
}
