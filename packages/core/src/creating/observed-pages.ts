/** A page reader for the create path that teaches the service clock the createdAt of every link listed. */
import type { LinkPage } from '../types';
import type { PageReader } from './window-walk';
import type { ServiceClock } from './service-clock';

export interface ObservedPagesIo {
  listPage(cursor: string | undefined): Promise<LinkPage>;
  now(): number;
}

export function observedPages(io: ObservedPagesIo, clock: ServiceClock): PageReader {
  return async (cursor) => {
    const page = await io.listPage(cursor);
    const receivedAt = io.now();
    for (const link of page.links) clock.observeListed(typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN, receivedAt);
    return page;
  };
}
