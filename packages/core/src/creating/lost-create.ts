/**
 * After a create whose outcome is unknown: was a link stored, and is it provably this request's?
 * (docs/guarantees.md, "The create rule".) The account is read twice, a settle delay apart (a list may show
 * a new link late, and a service may still be working on a request nobody answered for), and then:
 * - nothing in the window, both times, whole window read → nothing was stored (so far: whether the request
 *   may still land is the caller's question, create-once.ts);
 * - the one link carrying this request's marker (a slug this client chose) → it is the request's own link;
 * - for Find or Create with the user's own slug, the link holding it with this target → the link asked for,
 *   though not provably made by this request;
 * - anything else → unknown: never a second link, never another caller's link. Without a marker nothing
 *   tells this request's link from one another step or workflow made at the same moment, whatever the
 *   clocks say, so a candidate is never taken on the word of a time window.
 */
import type { CreateLinkInput, Link } from '../types';
import { createdAtOf, walkCreateWindow, type PageReader, type WindowWalk } from './window-walk';
import type { ServiceClock } from './service-clock';

/** Look again after at least this (longer when the list's lag was seen to be longer), so that a lagging list or a slow write shows up. */
export const OWN_CREATE_SETTLE_MS = 1_500;
/** Pages one look reads at most (an oldest-first list is read to its end: 10 000 links are 100 pages). */
export const OWN_CREATE_MAX_PAGES = 150;

export interface LostCreate {
  wanted: CreateLinkInput;
  /** The request carried a marker only it can have (a slug this client chose): a candidate with it is its own. */
  marked: boolean;
  /**
   * Find or Create with the user's own slug: the link holding that slug with this target is the answer
   * whoever made it (it is the link asked for), returned as found rather than made.
   */
  adoptSame?: boolean;
  /** When the (first) request that may have stored it was sent, and when the failure was seen (our clock). */
  sentAt: number;
  failedAt: number;
  /** Ids this client already returned as created: never handed out twice, never counted as others' candidates. */
  claimed: ReadonlySet<string>;
}

export interface SettleIo {
  /** One page of the list; the reader teaches `clock` the createdAt values it shows. */
  readPage: PageReader;
  pause: (ms: number) => Promise<void>;
  clock: ServiceClock;
  /** The wait between the two looks: at least OWN_CREATE_SETTLE_MS, longer when the list was seen to lag more. */
  settleMs: number;
}

export type Settlement =
  | { kind: 'own'; link: Link }
  /** The link asked for exists (Find or Create with the user's slug), not provably made by this request. */
  | { kind: 'same'; link: Link }
  | { kind: 'nothing stored' }
  /** `why` completes "The link may have been created, and …". */
  | { kind: 'unknown'; why: string };

export async function settleLostCreate(io: SettleIo, lost: LostCreate): Promise<Settlement> {
  // The earliest createdAt the link can have, by createdAt values alone: safe whatever the Date header says.
  const windowStart = () => lost.sentAt + io.clock.safeLow();
  const first = await walkCreateWindow(io.readPage, { wanted: lost.wanted, windowStart, maxPages: OWN_CREATE_MAX_PAGES });
  // A window too large for one look cannot be settled by a second.
  if (!first.complete) return decide([first], lost, io.clock);
  await io.pause(Math.max(OWN_CREATE_SETTLE_MS, io.settleMs));
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
  if (lost.marked) return { kind: 'own', link: only };
  if (lost.adoptSame) return { kind: 'same', link: only };
  return {
    kind: 'unknown',
    why: `a link with this target URL (id ${String(only.id)}) appeared, and without a marker it cannot be told from one another step or workflow made at the same moment`,
  };
}
