import type { Bundle, ZObject } from 'zapier-platform-core';
import { scopedCache } from '../connectionCache';

/**
 * What every polling trigger of the app shares (New Link now, click events later): Zapier's limit of new
 * items per poll, which Zap a poll belongs to, and where a Zap's state is kept between polls.
 *
 * Zapier fires a Zap once per new `id` among the items of a poll, and holds the runs of a poll that brings
 * more than about 100 new items (the user gets an email). So a trigger hands out at most 100 items per
 * poll and keeps the rest for the next polls.
 */
export const MAX_NEW_ITEMS_PER_POLL = 100;

/** Kept well past any polling interval (1 to 15 minutes); every poll renews it. */
const STATE_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * The Zap a poll belongs to. What the platform documents for a polling `perform` (the bundle.meta
 * reference and the zapier-platform-core 19 typings) has no Zap identifier: `bundle.meta.zap` is marked
 * `@deprecated` (2024), earlier documented for subscribe/unsubscribe only, and core 10.1.0 removed its own
 * use of it. z.cache scopes are 'user' and 'auth', not Zap. So a trigger keeps per-Zap state only while
 * Zapier still sends `bundle.meta.zap.id`, and says so in the log when it does not (the caller then falls
 * back to its documented look-back): a state shared by two Zaps of one connection would let one take the
 * links of the other.
 */
export function zapKey(z: ZObject, bundle: Bundle, trigger: string): string | undefined {
  const meta = bundle.meta as { zap?: { id?: unknown } } | undefined;
  const id = meta?.zap?.id;
  if ((typeof id === 'string' && id !== '') || typeof id === 'number') return `${trigger}:zap:${id}`;
  z.console.log(
    `${trigger}: Zapier sent no Zap id (bundle.meta.zap.id, deprecated in the platform's typings), so no state can be kept for this Zap; this poll looks back over the newest ${MAX_NEW_ITEMS_PER_POLL} items instead.`,
  );
  return undefined;
}

/**
 * A Zap's stored state, checked by `check`; a state the check rejects (written by another version, or
 * damaged) is logged and dropped, so the trigger starts over instead of failing every poll.
 */
export async function readPollState<T>(z: ZObject, key: string, check: (stored: unknown) => T | undefined): Promise<T | undefined> {
  const stored = await scopedCache(z)!.get(key, ['auth']);
  try {
    return check(stored);
  } catch (error) {
    z.console.warn(`${key}: discarding the stored poll state (${(error as Error).message})`);
    return undefined;
  }
}

/**
 * Saved per connection ('auth' scope: another connection never sees it) as the last thing before the
 * items are returned, so the state moves past exactly the items this poll gives Zapier; if saving fails,
 * the poll fails and the same items come again (Zapier's id dedupe drops repeats).
 */
export async function savePollState(z: ZObject, key: string, state: unknown): Promise<void> {
  await scopedCache(z)!.set(key, state, STATE_TTL_SECONDS, ['auth']);
}
