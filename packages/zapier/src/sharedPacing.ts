/**
 * Pacing across steps. Every Zapier step is its own invocation with its own core client, which would start
 * blind: its first request a probe, and after a spent window a wait for a Retry-After rounded up to the
 * second (the bulk benchmark measured 0.905–0.928 of the limit for that). So what a connection's clients
 * learned of the rate limit (Remaining, the reset, the others' share: the core's PacingState) is kept in
 * z.cache between steps: each step starts from it and stores what it learned when it ends.
 * - per connection: z.cache's 'auth' scope, and the service's address in the key (as linkIndex.ts);
 * - small (a few numbers) and short-lived: past STATE_TTL_SECONDS nothing in it still helps;
 * - best effort: a cache that fails or holds something else only means the step starts blind, as before.
 * Steps of one connection that run at the same time each start from the latest stored state; what they
 * spend meanwhile shows in the next answers' headers, as any other client's spending does.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { credentialFingerprint, readPacingState, type PacingState } from '@shortlink/core/host';
import { scopedCache, serviceAddressOf } from './connectionCache';

/** Long enough to span the gaps between the runs of a busy Zap, far shorter than a day of idle. */
export const STATE_TTL_SECONDS = 600;

/** A step's view: the state it started from, and the clients it made (each with its own pacer). */
interface StepPacing {
  restored?: PacingState;
  clients: Array<{ pacingState(): PacingState }>;
}

const steps = new WeakMap<object, StepPacing>();

function stateKey(bundle: Bundle): string {
  return `pacing:v1:${credentialFingerprint(serviceAddressOf(bundle)).slice(4)}`;
}

/** The state a new client of this step starts from (the stored one, or what an earlier client of the step learned). */
export function pacingStateFor(bundle: Bundle): PacingState | undefined {
  const step = steps.get(bundle);
  if (!step) return undefined;
  return latest(step) ?? step.restored;
}

/** Counts a client of this step in: what it learns is stored when the step ends. */
export function registerPacedClient(bundle: Bundle, client: { pacingState(): PacingState }): void {
  steps.get(bundle)?.clients.push(client);
}

/** The most recently learned state among the step's clients, if any learned anything. */
function latest(step: StepPacing): PacingState | undefined {
  let best: PacingState | undefined;
  for (const client of step.clients) {
    const state = client.pacingState();
    if (state.atMs > 0 && (!best || state.atMs > best.atMs)) best = state;
  }
  return best;
}

/** Runs one step with the connection's stored pacing state, and stores what the step learned. */
export async function withSharedPacing<R>(z: ZObject, bundle: Bundle, run: () => Promise<R>): Promise<R> {
  if (!bundle || typeof bundle !== 'object' || steps.has(bundle)) return run();
  const cache = scopedCache(z);
  const key = stateKey(bundle);
  const step: StepPacing = { clients: [] };
  try {
    const restored = readPacingState(await cache?.get(key, ['auth']));
    if (restored) step.restored = restored;
  } catch {
    // no stored state: the step starts blind
  }
  steps.set(bundle, step);
  try {
    return await run();
  } finally {
    const learned = latest(step);
    if (learned && learned.atMs > (step.restored?.atMs ?? 0)) {
      try {
        await cache?.set(key, learned, STATE_TTL_SECONDS, ['auth']);
      } catch {
        // not kept: the next step starts blind
      }
    }
  }
}
