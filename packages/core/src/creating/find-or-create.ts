/**
 * Find or Create: the link "the same" as the wanted one (link-index/same-link.ts) when the account has
 * one that redirects, else a new one made exactly once; a slug taken meanwhile by this very link is the
 * answer, by another link a conflict.
 */
import type { CallBudget } from '../http/call-budget';
import { ConflictError } from '../errors';
import { checkCreateInput } from '../forms/input-checks';
import type { IndexQuery } from '../link-index/link-index';
import type { Lookups } from '../link-index/lookups';
import { isSameLink, unusableReason } from '../link-index/same-link';
import type { FindOrCreateOptions } from '../client/options';
import type { CreateLinkInput, Link, LinkCreated } from '../types';
import type { ExactlyOnceCreator } from './exactly-once-creator';

export async function findOrCreate(
  parts: { lookups: Lookups; creator: ExactlyOnceCreator; now: () => number },
  input: CreateLinkInput,
  options: FindOrCreateOptions,
  budget: CallBudget,
): Promise<{ link: Link | LinkCreated; created: boolean }> {
  const { lookups, creator, now } = parts;
  const wanted = checkCreateInput(input);
  const reuseInactive = options?.reuseInactive === true;
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
  try {
    await options.createGate?.before();
    return { link: await creator.create(wanted, budget), created: true };
  } catch (error) {
    await options.createGate?.failed(error);
    // The slug may have been taken meanwhile: if it is the same link, that is the answer; otherwise the
    // conflict stands.
    if (!(error instanceof ConflictError) || wanted.slug === undefined) throw error;
    const [holder] = await lookups.lookup(slugQuery(true), budget);
    if (holder && isSameLink(holder, criteria) && (reuseInactive || unusableReason(holder, now()) === undefined)) return { link: holder, created: false };
    throw error;
  }
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
