/**
 * Every walk through the list of links has an end (docs/guarantees.md, "Walks end"). A service whose paging
 * leads back to where it was — cursors A → B → A with new ids on each page, or new cursors that keep
 * serving links already listed — would otherwise be read forever, collecting links in memory. Every walk
 * (Get Many's Return All, the link index, the pickers, the triggers' polls) remembers what it has seen:
 * - the continuations it followed: one handed out a second time ends the walk;
 * - the ids it listed: a few pages in a row that hold only links already listed end it too (one repeated
 *   link is normal: a link created while paging pushes the next one across a page boundary).
 * The end is a PagingCircleError: "the service's paging leads in a circle". Reading again cannot help
 * (the service would lead the same way), so the message never asks for that.
 *
 * Walks that span several calls (a Zapier dropdown's next page, a stored index, a trigger's saved place)
 * carry the last continuations' fingerprints in the client's page token (continuation.ts), so the pager
 * catches circles of up to TOKEN_TRAIL pages across calls as well.
 */
import { UnexpectedResponseError } from '../errors';

/** Pages in a row that hold only links already listed in this walk before it counts as circling. */
export const REPEATED_PAGES_LIMIT = 3;
/** Continuation fingerprints a page token carries (circles up to this long are caught across calls). */
export const TOKEN_TRAIL = 24;

/** The walk ended because the service's paging leads back to where it was. */
export class PagingCircleError extends UnexpectedResponseError {
  constructor(detail: string, what = 'the list') {
    super({
      title: "The service's paging leads in a circle",
      message: `The service's paging leads in a circle (${detail}), so ${what} was not read further instead of being read forever. Reading it again would lead the same way: the service's paging needs fixing (tell its support what this message says).`,
    });
  }
}

/** A short, stable fingerprint of a continuation (FNV-1a, 32 bits, base 36): kept in tokens, never sent. */
export function continuationFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function shown(continuation: string): string {
  return JSON.stringify(continuation.length > 60 ? `${continuation.slice(0, 57)}...` : continuation);
}

/** One walk's memory: the continuations followed and the ids listed. */
export class WalkGuard {
  private readonly followed = new Set<string>();
  private repeatedPages = 0;
  private readonly ids = new Set<string>();
  pages = 0;

  /** `what` names the walk in messages ("the list", "the search"); `known`: continuations used before. */
  constructor(
    private readonly what = 'the list',
    known: Iterable<string> = [],
  ) {
    for (const continuation of known) this.followed.add(continuation);
  }

  /** A page was read with this continuation (undefined: the first page). */
  at(continuation: string | undefined): void {
    if (continuation !== undefined) this.followed.add(continuation);
  }

  /** Throws when `next` was followed already in this walk; else remembers it. */
  follow(next: string): void {
    if (this.followed.has(next)) throw new PagingCircleError(`it handed out the continuation ${shown(next)} a second time, after ${this.pages} page(s)`, this.what);
    this.followed.add(next);
  }

  /** The page's links not listed before in this walk; throws after a few pages that only repeat. */
  fresh<T extends { id: unknown }>(links: readonly T[]): T[] {
    this.pages++;
    const fresh = links.filter((link) => !this.ids.has(String(link.id)));
    for (const link of fresh) this.ids.add(String(link.id));
    this.repeatedPages = links.length > 0 && fresh.length === 0 ? this.repeatedPages + 1 : 0;
    if (this.repeatedPages >= REPEATED_PAGES_LIMIT) {
      throw new PagingCircleError(`${REPEATED_PAGES_LIMIT} pages in a row held only links already listed, after ${this.pages} page(s)`, this.what);
    }
    return fresh;
  }

  /** Links listed so far (distinct). */
  get listed(): number {
    return this.ids.size;
  }

  /**
   * One page of a walk: its new links, after checking it. `continuation` is what the page was read with,
   * `next` what it hands out (null or undefined at the end).
   */
  page<T extends { id: unknown }>(continuation: string | undefined, links: readonly T[], next: string | null | undefined): T[] {
    this.at(continuation);
    const fresh = this.fresh(links);
    if (next) this.follow(next);
    return fresh;
  }
}
