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

/** The whole body as UTF-8 text, or ResponseTooLargeError once more than `maxBytes` arrived (the stream is then destroyed). */
export async function readBodyText(body: AsyncIterable<Chunk> & { destroy?: () => void; cancel?: () => unknown }, maxBytes: number): Promise<string> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let size = 0;
  let text = '';
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > maxBytes) {
      body.destroy?.();
      throw new ResponseTooLargeError(maxBytes);
    }
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}
