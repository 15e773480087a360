/**
 * Service quirks the spec allows or real services show, switched on by tests (sandbox.setQuirks):
 * - `cursorCycle`: GET /links pages lead in a circle. The first page is the account's own, its next cursor
 *   is "cycle-A"; the page for "cycle-A" hands out "cycle-B", and "cycle-B" hands out "cycle-A" again —
 *   each of these pages with links never seen before (new ids, older and older), so only the cursors repeat.
 * - `rateLimitTimes`: how the rate-limit times are written — 'delta' (the document: seconds from now),
 *   'epoch' (RateLimit-Reset as epoch seconds on the service's clock), 'http-date' (Retry-After as an HTTP
 *   date on the service's clock; RateLimit-Reset left out).
 * - `dateOffsetMs`: the service's clock runs this far ahead of the sandbox's: the Date header and the
 *   absolute rate-limit times show it (createdAt has its own knob, createdAtOffsetMs).
 */
import type { FastifyReply } from 'fastify';
import type { RateLimitDecision } from './rate-limiter';
import type { Link, ServiceQuirks } from './types';

export type { ServiceQuirks };


export const CYCLE_CURSORS = ['cycle-A', 'cycle-B'] as const;

/** The service's clock (epoch ms) under the quirks. */
export function serviceNow(quirks: ServiceQuirks, now: number): number {
  return now + (quirks.dateOffsetMs ?? 0);
}

/** The rate-limit headers of one answer, written in the quirks' form. */
export function writeRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision, quirks: ServiceQuirks, now: number): void {
  const form = quirks.rateLimitTimes ?? 'delta';
  const resetAt = serviceNow(quirks, now) + decision.resetSeconds * 1000;
  reply.header('RateLimit-Limit', decision.limit);
  reply.header('RateLimit-Remaining', decision.remaining);
  if (form === 'delta') reply.header('RateLimit-Reset', decision.resetSeconds);
  if (form === 'epoch') reply.header('RateLimit-Reset', Math.ceil(resetAt / 1000));
  if (!decision.allowed) reply.header('Retry-After', form === 'http-date' ? new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString() : decision.resetSeconds);
}

/** Whether a cursor is one of the circle's. */
export function isCycleCursor(cursor: string | undefined): boolean {
  return cursor !== undefined && (CYCLE_CURSORS as readonly string[]).includes(cursor);
}

/** Counts the circle's pages, so that each holds links never handed out before. */
export class CursorCycle {
  private served = 0;

  /** The page for a circle cursor: `limit` new links, and the other cursor of the circle. */
  page(cursor: string, limit: number, template: Link | undefined, now: number): { data: Link[]; nextCursor: string } {
    const data: Link[] = [];
    for (let i = 0; i < limit; i++) {
      const n = ++this.served;
      const createdAt = new Date(now - 86_400_000 - n * 1000).toISOString();
      data.push({
        ...(template ?? placeholderLink()),
        id: String(9_000_000 + n),
        slug: `cycle${n}`,
        shortUrl: template ? template.shortUrl.replace(/[^/]+$/, `cycle${n}`) : `https://sho.rt/cycle${n}`,
        targetUrl: `https://example.org/cycle/${n}`,
        title: `Cycle ${n}`,
        clicks: 0,
        createdAt,
      });
    }
    return { data, nextCursor: cursor === CYCLE_CURSORS[0] ? CYCLE_CURSORS[1] : CYCLE_CURSORS[0] };
  }
}

function placeholderLink(): Link {
  return {
    id: '0',
    slug: 'cycle',
    shortUrl: 'https://sho.rt/cycle',
    targetUrl: 'https://example.org/cycle',
    title: '',
    domain: null,
    active: true,
    blocked: false,
    hasPassword: false,
    clicks: 0,
    expiresAt: null,
    createdAt: new Date(0).toISOString(),
  };
}
