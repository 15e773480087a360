/**
 * An in-memory model of GET /links for the new-links algorithm's tests. By default as the document
 * specifies it: newest first (createdAt, then id, descending), keyset cursors that never shift when links
 * come or go. Options turn it into the services the algorithm must survive: listed oldest first, cursors
 * that expire (a 422 naming `cursor`), empty pages that still carry a next cursor, links whose createdAt
 * cannot be read, and cursors that lead in a circle. Links made without a tick in between share a
 * millisecond. While it lists oldest first its clock also moves a millisecond with every request and with
 * every link: the trigger learns the order from createdAt, so such a list must show different times (links
 * of one millisecond say nothing about the order), and its first poll takes the service's clock as its start.
 */
import type { Link, LinkPage } from '@shortlink/core';

export type ListOrder = 'newest-first' | 'oldest-first';

export interface LinkListModelOptions {
  order?: ListOrder;
  /** A cursor used more than this many requests after it was issued is refused (422). */
  cursorLifetime?: number;
  /** Every n-th request that carries a cursor answers an empty page with a fresh cursor to the same place. */
  emptyPageEvery?: number;
  /** First id handed out (two models with far apart ranges stand for two accounts). */
  firstId?: number;
  start?: number;
}

/** A link as the model keeps it: `at` is its real creation time, whatever its createdAt says. */
interface Stored {
  link: Link;
  at: number;
}

/** The error a service gives for a cursor it no longer accepts (the client's ValidationError has these). */
export class RefusedCursor extends Error {
  readonly status = 422;
  constructor() {
    super('Validation failed: cursor is not a valid cursor; pass the nextCursor of a previous page.');
  }
}

interface Cursor {
  at: number;
  id: number;
  issued: number;
  salt: number;
}

export class LinkListModel {
  private links: Stored[] = [];
  private nextId: number;
  private time: number;
  private pending: Array<{ at: number; run: () => void }> = [];
  private salt = 0;
  /** Requests served (or refused) so far. */
  requests = 0;
  order: ListOrder;
  cursorLifetime: number | undefined;
  emptyPageEvery: number | undefined;
  /** While set, a page's nextCursor leads back to the cursor it was asked with (a circle). */
  circling = false;

  constructor(options: LinkListModelOptions = {}) {
    this.order = options.order ?? 'newest-first';
    this.cursorLifetime = options.cursorLifetime;
    this.emptyPageEvery = options.emptyPageEvery;
    this.nextId = options.firstId ?? 1000;
    this.time = options.start ?? Date.parse('2026-11-22T10:00:00.000Z');
  }

  /** The service's clock. */
  now = (): number => this.time;

  tick(ms: number): void {
    this.time += ms;
  }

  /** k links at the current instant (equal timestamps when no tick or request happens between them). */
  create(k: number): Link[] {
    return this.add(k, (at) => new Date(at).toISOString());
  }

  /** k links whose createdAt cannot be read (null, or not a date); the list still orders them by creation. */
  createUndated(k: number): Link[] {
    return this.add(k, (_at, i) => (i % 2 === 0 ? (null as unknown as string) : 'not a date'));
  }

  private add(k: number, createdAt: (at: number, i: number) => string): Link[] {
    const made: Link[] = [];
    for (let i = 0; i < k; i++) {
      const id = String(this.nextId++);
      const link: Link = {
        id,
        slug: `s${id}`,
        shortUrl: `https://sho.rt/s${id}`,
        targetUrl: `https://example.org/${id}`,
        title: '',
        domain: null,
        active: true,
        blocked: false,
        hasPassword: false,
        clicks: 0,
        expiresAt: null,
        createdAt: createdAt(this.time, i),
      };
      this.links.push({ link, at: this.time });
      made.push(link);
      if (this.order === 'oldest-first') this.time += 1;
    }
    return made;
  }

  remove(id: string): void {
    this.links = this.links.filter((stored) => stored.link.id !== id);
  }

  ids(): string[] {
    return this.links.map((stored) => stored.link.id);
  }

  /** The link with this id, as the model keeps it. */
  find(id: string): Link | undefined {
    return this.links.find((stored) => stored.link.id === id)?.link;
  }

  /** When a link of this model was really created (also for links whose createdAt cannot be read). */
  createdAt(id: string): number | undefined {
    return this.links.find((stored) => stored.link.id === id)?.at;
  }

  /** Schedules `run` (which may throw, failing that request) before the request `after` requests from now. */
  beforeRequest(after: number, run: () => void): void {
    this.pending.push({ at: this.requests + after, run });
  }

  /** Refuses the next request that carries a cursor, whatever its age (the service forgot its cursors). */
  forgetCursors(): void {
    this.cursorsForgottenAt = this.requests;
  }

  private cursorsForgottenAt = -1;

  private sorted(): Stored[] {
    const newestFirst = [...this.links].sort((a, b) => b.at - a.at || Number(b.link.id) - Number(a.link.id));
    return this.order === 'newest-first' ? newestFirst : newestFirst.reverse();
  }

  /** True when `a` lies after the cursor position in the list's order. */
  private after(a: Stored, cursor: Cursor): boolean {
    const byTime = this.order === 'newest-first' ? cursor.at - a.at : a.at - cursor.at;
    if (byTime !== 0) return byTime > 0;
    return this.order === 'newest-first' ? Number(a.link.id) < cursor.id : Number(a.link.id) > cursor.id;
  }

  private encode(position: { at: number; id: number }): string {
    return JSON.stringify({ ...position, issued: this.requests, salt: this.salt++ } satisfies Cursor);
  }

  readonly page = async (request: { limit: number; cursor?: string }): Promise<LinkPage> => {
    const due = this.pending.filter((p) => p.at <= this.requests);
    this.pending = this.pending.filter((p) => p.at > this.requests);
    for (const p of due) p.run();
    await Promise.resolve(); // a real answer takes a moment: other polls may run meanwhile
    this.requests++;
    if (this.order === 'oldest-first') this.time += 1;
    let rows = this.sorted();
    if (request.cursor !== undefined) {
      const cursor = JSON.parse(request.cursor) as Cursor;
      const expired = this.cursorLifetime !== undefined && this.requests - cursor.issued > this.cursorLifetime;
      if (expired || cursor.issued <= this.cursorsForgottenAt) throw new RefusedCursor();
      if (this.emptyPageEvery !== undefined && this.requests % this.emptyPageEvery === 0) {
        return { links: [], nextCursor: this.encode(cursor) };
      }
      rows = rows.filter((row) => this.after(row, cursor));
      if (this.circling) {
        const links = rows.slice(0, request.limit).map((row) => structuredClone(row.link));
        return { links, nextCursor: request.cursor };
      }
    }
    const page = rows.slice(0, request.limit);
    const last = page[page.length - 1];
    const more = rows.length > request.limit;
    return {
      links: page.map((row) => structuredClone(row.link)),
      nextCursor: more && last ? this.encode({ at: last.at, id: Number(last.link.id) }) : null,
    };
  };
}
