/**
 * After a create whose outcome is unknown: was a link stored, and is it provably this request's?
 * (docs/guarantees.md, "The create rule".) The account is read twice, a settle delay apart (a list may show
 * a new link late, and a service may still be working on a request nobody answered for), and then:
 * - nothing in the window, both times, whole window read → nothing was stored: the create may be sent again;
 * - exactly one candidate, never handed out by this client, stamped between the moment the request was
 *   sent and the moment its failure was seen on the service's clock (or carrying this request's marker)
 *   → it is the request's own link;
 * - anything else → unknown: never a second link, never another caller's link.
 */
import type { CreateLinkInput, Link } from '../types';
import { createdAtOf, walkCreateWindow, type PageReader, type WindowWalk } from './window-walk';
import type { ServiceClock } from './service-clock';

/** Look again after this, so that a lagging list or a slow write shows up. */
export const OWN_CREATE_SETTLE_MS = 1_500;
/** Pages one look reads at most (an oldest-first list is read to its end: 10 000 links are 100 pages). */
export const OWN_CREATE_MAX_PAGES = 150;

export interface LostCreate {
  wanted: CreateLinkInput;
  /** The request carried a marker only it can have (a slug this client chose): a candidate with it is its own. */
  marked: boolean;
  /** When the (first) request that may have stored it was sent, and when the failure was seen (our clock). */
  sentAt: number;
  failedAt: number;
  /** Ids this client already returned as created: never handed out twice, never counted as others' candidates. */
  claimed: ReadonlySet<string>;
}

export interface SettleIo {
  /** One page of the list; the reader teaches `clock` what the answer shows (Date, createdAt values). */
  readPage: PageReader;
  pause: (ms: number) => Promise<void>;
  clock: ServiceClock;
}

export type Settlement =
  | { kind: 'own'; link: Link }
  | { kind: 'nothing stored' }
  /** `why` completes "The link may have been created, and …". */
  | { kind: 'unknown'; why: string };

export async function settleLostCreate(io: SettleIo, lost: LostCreate): Promise<Settlement> {
  // The earliest createdAt the link can have, by createdAt values alone: safe whatever the Date header says.
  const windowStart = () => lost.sentAt + io.clock.safeLow();
  const first = await walkCreateWindow(io.readPage, { wanted: lost.wanted, windowStart, maxPages: OWN_CREATE_MAX_PAGES });
  // A window too large for one look cannot be settled by a second.
  if (!first.complete) return decide([first], lost, io.clock);
  await io.pause(OWN_CREATE_SETTLE_MS);
  const from = first.order === 'oldest first' ? first.resumeFrom : undefined;
  const second = await walkCreateWindow(io.readPage, { wanted: lost.wanted, windowStart, maxPages: OWN_CREATE_MAX_PAGES, ...(from ? { from } : {}) });
  return decide([first, second], lost, io.clock);
}

function decide(looks: WindowWalk[], lost: LostCreate, clock: ServiceClock): Settlement {
  const start = lost.sentAt + clock.safeLow();
  const byId = new Map<string, Link>();
  for (const link of looks.flatMap((look) => look.candidates)) {
    const createdAt = createdAtOf(link);
    if (!lost.claimed.has(String(link.id)) && !(createdAt < start)) byId.set(String(link.id), link);
  }
  const candidates = [...byId.values()];
  if (looks.some((look) => !look.complete)) return { kind: 'unknown', why: 'too many links were created meanwhile to check them all' };
  if (candidates.length === 0) return { kind: 'nothing stored' };
  if (candidates.length > 1) {
    return { kind: 'unknown', why: `${candidates.length} links with this target URL appeared meanwhile (another step or workflow may have created the same link), so it cannot tell which one is this item's` };
  }
  const [only] = candidates as [Link];
  if (lost.marked || stampedInWindow(only, lost, clock)) return { kind: 'own', link: only };
  return { kind: 'unknown', why: `a link with this target URL (id ${String(only.id)}) appeared, but the service's clock could not be read closely enough to tell it from one made by another step or workflow` };
}

/** Stamped between the send and the failure on the service's clock, as narrowly as the clock is known. */
function stampedInWindow(link: Link, lost: LostCreate, clock: ServiceClock): boolean {
  const { low, high } = clock.tight();
  const createdAt = createdAtOf(link);
  if (!Number.isFinite(createdAt) || !Number.isFinite(low) || !Number.isFinite(high)) return false;
  return createdAt >= lost.sentAt + low && createdAt <= lost.failedAt + high;
}
