/**
 * A page reader for the create path that teaches the service clock what each answer shows: its Date
 * header (read between the request's send and its answer) and the createdAt of every link listed.
 */
import type { LinkPage } from '../types';
import type { PageReader } from './window-walk';
import type { ServiceClock } from './service-clock';

export interface ObservedPagesIo {
  listPage(cursor: string | undefined): Promise<LinkPage>;
  /** The last Date header the executor read (a new object for every answer that had one). */
  lastDate(): { serviceMs: number; localMs: number } | undefined;
  now(): number;
}

export function observedPages(io: ObservedPagesIo, clock: ServiceClock): PageReader {
  return async (cursor) => {
    const sentAt = io.now();
    const before = io.lastDate();
    const page = await io.listPage(cursor);
    const receivedAt = io.now();
    const after = io.lastDate();
    if (after && after !== before && after.localMs >= sentAt) clock.observeDate(after.serviceMs, sentAt, receivedAt);
    for (const link of page.links) clock.observeListed(typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN, receivedAt);
    return page;
  };
}
