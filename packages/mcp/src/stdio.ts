/**
 * stdio with a limit on one message. The SDK's transport stops reading (and the process ends, exit code 0,
 * without a word) when a message outgrows its buffer; here stdin passes through a line guard first: a line
 * larger than the limit is skipped, answered with a JSON-RPC error (the request's id when it can be read
 * from the line's start or end, else null) and said on stderr, and the server goes on with the next line.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** The largest message read on stdin (a tool call's arguments are small). */
export const MAX_STDIO_MESSAGE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;
const EDGE = 256;

/**
 * The id of a request as the SDK writes it ({"jsonrpc":"2.0","id":7,… or …,"jsonrpc":"2.0","id":7}):
 * only at the top level's very start or end, where no nested "id" can stand.
 */
export function requestIdOf(head: string, tail: string): string | number | null {
  const value = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/.exec(head)?.[1] ?? /"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/.exec(tail)?.[1];
  if (value === undefined) return null;
  return value.startsWith('"') ? (JSON.parse(value) as string) : Number(value);
}

export class LineGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private skipped = 0;
  private head = '';
  private tail = Buffer.alloc(0);

  constructor(
    private readonly onTooLarge: (bytes: number, id: string | number | null) => void,
    private readonly limit = MAX_STDIO_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end + 1);
      if (this.skipping) this.skip(piece);
      else if (this.pendingBytes + piece.length > this.limit) {
        // Too large: what was kept of the line goes, its edges stay for the id.
        const kept = Buffer.concat([...this.pending, piece]);
        this.pending = [];
        this.pendingBytes = 0;
        this.skipping = true;
        this.skipped = 0;
        this.head = kept.subarray(0, EDGE).toString('utf8');
        this.tail = Buffer.alloc(0);
        this.skip(kept);
      } else {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
        if (end !== -1) {
          this.push(Buffer.concat(this.pending));
          this.pending = [];
          this.pendingBytes = 0;
        }
      }
      start = end === -1 ? chunk.length : end + 1;
    }
    done();
  }

  private skip(piece: Buffer): void {
    this.skipped += piece.length;
    this.tail = Buffer.concat([this.tail, piece]).subarray(-EDGE);
    if (piece[piece.length - 1] === NEWLINE) {
      this.skipping = false;
      this.onTooLarge(this.skipped, requestIdOf(this.head, this.tail.toString('utf8')));
    }
  }
}
