/**
 * Which way the service lists links, told from createdAt. The document says newest first (createdAt
 * desc, then id desc); a service that lists oldest first would otherwise look "quiet" forever, because
 * its first link is the oldest and already handled.
 */
import type { Link } from '../../types';

export type ListOrder = 'newest-first' | 'oldest-first';

/** Epoch ms of a createdAt, or undefined when it cannot be read (missing, null, not a date). */
export function readTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function timeOf(link: Link): number | undefined {
  return readTime((link as { createdAt?: unknown }).createdAt);
}

/**
 * What the times of consecutive links say: 'falling' (newest first), 'rising' (oldest first), 'both' (no
 * order), or undefined (fewer than two distinct readable times). `before` is the last readable time seen
 * before these links (the previous page), so that pages of one link still show the order.
 */
export function orderEvidence(links: readonly Link[], before?: number): 'falling' | 'rising' | 'both' | undefined {
  let previous = before;
  let falling = false;
  let rising = false;
  for (const link of links) {
    const t = timeOf(link);
    if (t === undefined) continue;
    if (previous !== undefined) {
      if (t < previous) falling = true;
      if (t > previous) rising = true;
    }
    previous = t;
  }
  if (falling && rising) return 'both';
  if (falling) return 'falling';
  if (rising) return 'rising';
  return undefined;
}

/** The last readable time among the links, for the next page's comparison. */
export function lastTime(links: readonly Link[], fallback?: number): number | undefined {
  for (let i = links.length - 1; i >= 0; i--) {
    const t = timeOf(links[i]!);
    if (t !== undefined) return t;
  }
  return fallback;
}
