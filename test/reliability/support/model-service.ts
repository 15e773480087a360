/**
 * An in-memory model of GET /links as the document specifies it: newest first (createdAt, then id,
 * descending) with keyset cursors, so a page never shifts when links are added or removed. Hooks run
 * before a page is served, to insert links while a poll is paging.
 */
import type { Link, LinkPage } from '@shortlink/core';

export class ModelService {
  private links: Link[] = [];
  private nextId = 1000;
  private time = Date.parse('2026-11-22T10:00:00.000Z');
  /** Run (and removed) before the n-th page request from now on: index 0 = the next request. */
  private pending: Array<{ at: number; run: () => void }> = [];
  private requests = 0;

  tick(ms: number): void {
    this.time += ms;
  }

  /** k links at the current instant (equal timestamps when no tick happens between them). */
  create(k: number): Link[] {
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
        createdAt: new Date(this.time).toISOString(),
      };
      this.links.push(link);
      made.push(link);
    }
    return made;
  }

  remove(id: string): void {
    this.links = this.links.filter((link) => link.id !== id);
  }

  ids(): string[] {
    return this.links.map((link) => link.id);
  }

  /** Schedules `run` (which may throw, failing that page request) before the page request `after` requests from now. */
  beforeRequest(after: number, run: () => void): void {
    this.pending.push({ at: this.requests + after, run });
  }

  readonly page = async (request: { limit: number; cursor?: string }): Promise<LinkPage> => {
    const due = this.pending.filter((p) => p.at <= this.requests);
    this.pending = this.pending.filter((p) => p.at > this.requests);
    for (const p of due) p.run();
    this.requests++;
    const sorted = [...this.links].sort((a, b) => compareDesc(a, b));
    let start = 0;
    if (request.cursor !== undefined) {
      const [createdAt, id] = JSON.parse(request.cursor) as [string, string];
      const position = { createdAt, id } as Link;
      start = sorted.findIndex((link) => compareDesc(link, position) > 0);
      if (start === -1) start = sorted.length;
    }
    const links = sorted.slice(start, start + request.limit);
    const last = links[links.length - 1];
    const more = start + request.limit < sorted.length;
    return { links: structuredClone(links), nextCursor: more && last ? JSON.stringify([last.createdAt, last.id]) : null };
  };
}

/** Negative when a comes first in the newest-first order. */
function compareDesc(a: Pick<Link, 'createdAt' | 'id'>, b: Pick<Link, 'createdAt' | 'id'>): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : Number(b.id) - Number(a.id);
}
