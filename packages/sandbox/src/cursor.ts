/** Opaque keyset cursors for GET /links: the (createdAt, id) of the last link of a page. */
import type { LinkCursor } from './store';

export function encodeCursor(position: LinkCursor): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** The position, or undefined when the text is not a cursor this sandbox issued. */
export function decodeCursor(cursor: string): LinkCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      /^[0-9]+$/.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // falls through: not a cursor
  }
  return undefined;
}
