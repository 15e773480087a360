/**
 * One flight per link within a process (docs/guarantees.md, "Many callers"): concurrent Find or Create calls
 * for the same link — an agent's fanned-out tool calls, a warm Zapier container's parallel runs — wait for
 * the first one instead of each creating. The first caller's answer is everyone's; only it can say
 * "created". A flight that ended because its own caller was stopped (cancelled, out of time) answers nobody
 * else: the next waiting caller starts a flight of its own.
 */
import { CancelledError, DeadlineError } from '../errors';
import { cancelledError, deadlineError, requestSignal, untilAborted, type CallBudget } from '../http/call-budget';

export type FlightTable = Map<string, Promise<unknown>>;

/** Whether the flight ended for a reason of its own caller's, which says nothing about the link. */
function stoppedByItsCaller(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof DeadlineError && !error.outcomeUnknown);
}

/**
 * Runs `fly` as the flight for `key`, or waits for the flight already under way (within this caller's own
 * budget). `joined`: the answer came from another caller's flight.
 */
export async function oneFlight<T>(table: FlightTable, key: string, budget: CallBudget, now: () => number, fly: () => Promise<T>): Promise<{ value: T; joined: boolean }> {
  for (;;) {
    const current = table.get(key) as Promise<T> | undefined;
    if (current === undefined) {
      const flight = fly();
      table.set(key, flight);
      try {
        return { value: await flight, joined: false };
      } finally {
        if (table.get(key) === flight) table.delete(key);
      }
    }
    const leftMs = budget.deadlineAt - now();
    if (leftMs <= 0) throw deadlineError(budget, 'waiting for the same link being made by another call');
    const { signal, timedOut } = requestSignal(budget, leftMs);
    try {
      return { value: await untilAborted(current, signal), joined: true };
    } catch (error) {
      if (signal.aborted && !timedOut()) throw cancelledError();
      if (signal.aborted) throw deadlineError(budget, 'waiting for the same link being made by another call');
      if (!stoppedByItsCaller(error)) throw error;
      // That caller stopped: its flight is over; this one starts its own.
      if (table.get(key) === current) table.delete(key);
    }
  }
}
