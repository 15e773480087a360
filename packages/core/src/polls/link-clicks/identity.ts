/**
 * Which link a count belongs to. An id alone is not enough: a service that reuses ids after a deletion
 * gives a new link the old one's id, and a state keyed by id would take the new link's clicks for the old
 * one's (its milestones would never fire, or fire against the wrong count). So a link is its id together
 * with its creation time: `${id}@${createdAt in epoch ms}`; a link without a readable createdAt is its id.
 * The same text names the link in the state's counts and in the events' ids (hosts' dedupe ids).
 */
import type { Link } from '../../types';
import { timeOf } from '../new-links/list-order';

export function linkIdentity(link: Pick<Link, 'id' | 'createdAt'>): string {
  const id = String(link.id);
  const t = timeOf(link as Link);
  return t === undefined ? id : `${id}@${t}`;
}

/** The link id an identity names (the part before "@"). */
export function idOfIdentity(identity: string): string {
  const at = identity.lastIndexOf('@');
  return at < 0 ? identity : identity.slice(0, at);
}
