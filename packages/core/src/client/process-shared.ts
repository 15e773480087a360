/**
 * What the clients of one key share within one process (docs/guarantees.md, "Many callers"). Hosts make a
 * client per unit of work — n8n per execution (webhook executions overlap on a worker), Zapier per step (a
 * warm container runs several), the MCP server one per key — yet the service counts the key's requests as
 * one budget and its links as one account. So, per service address and key:
 * - one rate-limit pacer, so that concurrent clients pace as one instead of racing each other into 429s;
 * - what was learned of the list's lag (creating/list-lag.ts);
 * - the Find or Create calls in flight, so that concurrent calls for one link share one flight;
 * - whether the service refused a marker slug (then creates go without one).
 * Keyed by the clock function too: a test's fake clock gets a world of its own. Only a fingerprint of the
 * key is kept, never the key.
 */
import { ListLag } from '../creating/list-lag';
import type { FlightTable } from '../creating/flights';
import { RateLimitPacer } from '../http/pacer';
import type { Sleep } from '../http/transport';
import { credentialFingerprint } from '../polls/state-owner';

/** The default clock: one function, so that clients on it share what they learn. */
export const systemNow = (): number => Date.now();

/** Keys (service address × API key) remembered per clock; the least recently used goes first. */
const KEYS_KEPT = 64;

export interface ProcessShared {
  pacer: RateLimitPacer;
  listLag: ListLag;
  flights: FlightTable;
  /** The service refused a slug chosen by the client (a plan without custom slugs): creates go without a marker. */
  markerRefused: boolean;
}

const worlds = new WeakMap<() => number, Map<string, ProcessShared>>();

export interface ProcessSharedKey {
  apiUrl: string;
  apiKey: string;
  now: () => number;
  /** Defaults for the pacer's own waits (each client passes its own when it asks). */
  sleep: Sleep;
  maxWaitMs: number;
}

/** The state the clients of this key share in this process (made at the first ask). */
export function processShared(key: ProcessSharedKey): ProcessShared {
  let world = worlds.get(key.now);
  if (!world) worlds.set(key.now, (world = new Map()));
  const id = `${key.apiUrl} ${credentialFingerprint(key.apiKey)}`;
  let shared = world.get(id);
  if (shared) {
    // Most recently used last.
    world.delete(id);
    world.set(id, shared);
    return shared;
  }
  shared = privateShared(key);
  world.set(id, shared);
  if (world.size > KEYS_KEPT) world.delete(world.keys().next().value!);
  return shared;
}

/** A client's own state, shared with nobody (no key to share by, or the host asked for it). */
export function privateShared(key: Omit<ProcessSharedKey, 'apiUrl' | 'apiKey'>): ProcessShared {
  return { pacer: new RateLimitPacer({ now: key.now, sleep: key.sleep, maxWaitMs: key.maxWaitMs }), listLag: new ListLag(), flights: new Map(), markerRefused: false };
}

/**
 * Forgets what the clients on the default clock share, as a new process starts with nothing: for tests
 * that stand for separate processes or containers (e.g. Zapier steps in different containers).
 */
export function forgetProcessShared(): void {
  worlds.delete(systemNow);
}
