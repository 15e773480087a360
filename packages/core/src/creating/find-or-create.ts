/**
 * Find or Create: the link "the same" as the wanted one (link-index/same-link.ts) when the account has
 * one that redirects, else a new one made exactly once; a slug taken meanwhile by this very link is the
 * answer, by another link a conflict. Across callers (docs/guarantees.md, "Many callers"): concurrent
 * calls for one link in this process share one flight (flights.ts); callers elsewhere that made twins at
 * the same moment settle on one (converge.ts). Only the caller whose link it is says "created".
 */
import type { CallBudget } from '../http/call-budget';
import { ConflictError } from '../errors';
import { checkCreateInput } from '../forms/input-checks';
import type { IndexQuery } from '../link-index/link-index';
import type { Lookups } from '../link-index/lookups';
import { isSameLink, unusableReason } from '../link-index/same-link';
import { targetFingerprint } from '../link-index/entry';
import type { ServiceApi } from '../endpoints/service-api';
import type { FindOrCreateOptions } from '../client/options';
import type { CreateLinkInput, Link, LinkCreated } from '../types';
import { converge } from './converge';
import type { ExactlyOnceCreator } from './exactly-once-creator';
import { oneFlight, type FlightTable } from './flights';
import type { ListLag } from './list-lag';

export interface FindOrCreateParts {
  lookups: Lookups;
  creator: ExactlyOnceCreator;
  api: ServiceApi;
  now: () => number;
  /** The process's flights for this key (client/process-shared.ts). */
  flights: FlightTable;
  listLag: ListLag;
}

type Found = { link: Link | LinkCreated; created: boolean };

export async function findOrCreate(parts: FindOrCreateParts, input: CreateLinkInput, options: FindOrCreateOptions, budget: CallBudget): Promise<Found> {
  const wanted = checkCreateInput(input);
  const reuseInactive = options?.reuseInactive === true;
  // The same link, as the sameness rule sees it: the target's comparable form, the domain, the slug.
  const key = ['foc', targetFingerprint(wanted.targetUrl), (wanted.domain ?? '').toLowerCase(), wanted.slug ?? '', reuseInactive ? 'any' : 'working'].join('|');
  const { value, joined } = await oneFlight(parts.flights, key, budget, parts.now, () => findOrCreateOnce(parts, wanted, reuseInactive, options, budget));
  // Another call of this process made or found it: only that call may say "created".
  return joined ? { link: value.link, created: false } : value;
}

async function findOrCreateOnce(parts: FindOrCreateParts, wanted: CreateLinkInput, reuseInactive: boolean, options: FindOrCreateOptions, budget: CallBudget): Promise<Found> {
  const { lookups, creator, now } = parts;
  const criteria: IndexQuery['criteria'] = { targetUrl: wanted.targetUrl, domain: wanted.domain ?? null };
  if (wanted.slug !== undefined) criteria.slug = wanted.slug;
  const [existing] = await lookups.lookup({ criteria, want: 1, reusableOnly: !reuseInactive }, budget);
  if (existing) return { link: existing, created: false };
  const slugQuery = (refresh: boolean): IndexQuery => ({ criteria: { slug: wanted.slug, domain: wanted.domain ?? null }, want: 1, ...(refresh ? { refresh } : {}) });
  if (wanted.slug !== undefined) {
    // The slug is this target's, but its link does not redirect: a create would only be refused (409).
    const [holder] = await lookups.lookup(slugQuery(false), budget);
    if (holder && isSameLink(holder, criteria)) throw unusableSlugHolder(holder, now());
  }
  let made;
  let sentAt = now();
  try {
    await options.createGate?.before();
    sentAt = now();
    made = await creator.createOutcome(wanted, budget, { adoptSame: wanted.slug !== undefined });
  } catch (error) {
    await options.createGate?.failed(error);
    // The slug may have been taken meanwhile: if it is the same link, that is the answer; otherwise the
    // conflict stands.
    if (!(error instanceof ConflictError) || wanted.slug === undefined) throw error;
    const [holder] = await lookups.lookup(slugQuery(true), budget);
    if (holder && isSameLink(holder, criteria) && (reuseInactive || unusableReason(holder, now()) === undefined)) return { link: holder, created: false };
    throw error;
  }
  // The link asked for exists, but this request cannot be shown to have made it (a lost answer, the user's slug).
  if (!made.made) return { link: made.link, created: false };
  // A slug is unique on its domain: with the user's slug no twin can exist.
  if (wanted.slug !== undefined) return { link: made.link, created: true };
  return converge(
    {
      lookForTwins: (same, reusableOnly, ownId) => lookups.lookForTwins(same, reusableOnly, ownId, budget),
      deleteOwn: async (id) => {
        await parts.api.deleteLink(id, budget);
        lookups.forget(id);
      },
      pause: (ms) => parts.api.executor.pauseWithin(ms, budget),
      now,
      deadlineAt: budget.deadlineAt,
      listLag: parts.listLag,
    },
    { link: made.link, criteria, reusableOnly: !reuseInactive, sentAt, answeredAt: now() },
  );
}

/** Find or Create with a slug whose link is this very link but paused, blocked or expired. */
function unusableSlugHolder(holder: Link, now: number): ConflictError {
  const why = unusableReason(holder, now);
  return new ConflictError({
    title: 'Link exists but does not redirect',
    message: `The link with the slug "${holder.slug}" (id ${holder.id}) already points to this target URL, but it is ${why}, so it was not reused, and a new link cannot have the same slug. Resume the link, choose another slug, or allow reusing inactive links.`,
    status: 409,
  });
}
