/**
 * Random interleavings for the new-link triggers: creates (bursts larger than a page, equal timestamps),
 * deletes, polls, links inserted while a poll is paging, and restarts from the saved state. One
 * interpreter runs them against any "world" (the in-memory model with the core algorithm, or the
 * sandbox with a host's trigger) and checks that every link is emitted exactly once.
 */
import fc from 'fast-check';

export type TriggerCommand =
  | { kind: 'create'; count: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'poll' }
  | { kind: 'insertDuringPoll'; afterRequests: number; count: number }
  | { kind: 'restart' }
  | { kind: 'samplePoll' }
  | { kind: 'failDuringPoll'; afterRequests: number };

export interface TriggerWorld {
  tick(ms: number): void;
  /** Creates `count` links now; returns their ids. */
  create(count: number): Promise<string[]>;
  /** Deletes one existing link chosen by `pick`; returns its id (undefined when none exists). */
  remove(pick: number): Promise<string | undefined>;
  /** Creates `count` links right before the `afterRequests`-th list request of the next poll. */
  insertDuringNextPoll(afterRequests: number, count: number, created: (ids: string[]) => void): void;
  /** One poll; the ids it emits (after the host's own deduplication), null when it died on an injected failure. */
  poll(): Promise<string[] | null>;
  /** Drops everything in memory, keeps only the stored state (as JSON), as after a process restart. */
  restart(): void;
  /** True while the stored state says a backlog is being worked off (a resume cursor is saved). */
  backlog(): boolean;
  /** A poll for a sample (n8n's manual test, Zapier's sample loading): must leave the state alone. */
  samplePoll?(): Promise<void>;
  /**
   * Makes the `afterRequests`-th list request from now fail (a poll dying between its pages). The
   * world's poll returns null for a poll that failed that way, and rethrows any other error.
   */
  failDuringNextPoll(afterRequests: number): void;
}

export interface ScenarioOptions {
  /**
   * Bound on the polls after the last command. Draining stops earlier once two polls in a row emit
   * nothing with no backlog saved: then the newest link is known and handled.
   */
  maxDrainPolls: number;
}

export function commandArbitrary(options: { burst: number; burstSpan?: number; maxInsert?: number }): fc.Arbitrary<TriggerCommand> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), count: fc.integer({ min: 1, max: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), count: fc.integer({ min: options.burst, max: options.burst + (options.burstSpan ?? 30) }) }) },
    // 0 ms: the next links share the timestamp of the previous ones.
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 1000) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('poll' as const) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('insertDuringPoll' as const),
        afterRequests: fc.integer({ min: 0, max: 3 }),
        count: fc.integer({ min: 1, max: options.maxInsert ?? 3 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('samplePoll' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('failDuringPoll' as const), afterRequests: fc.integer({ min: 0, max: 2 }) }) },
  );
}

export interface ScenarioResult {
  /** Ids per poll, in the order emitted (the initial poll included). */
  emissions: string[][];
}

/**
 * Runs the commands after an initial poll, then drains, and asserts:
 * - no link is emitted twice (checked after every poll);
 * - nothing that existed before the initial poll is emitted;
 * - every link created after it and never deleted is emitted.
 */
export async function runScenario(world: TriggerWorld, commands: TriggerCommand[], options: ScenarioOptions): Promise<ScenarioResult> {
  const emissions: string[][] = [];
  const emitted = new Map<string, number>();
  const createdAfterStart = new Set<string>();
  const deleted = new Set<string>();

  let lastPollFailed = false;
  const poll = async (): Promise<void> => {
    const result = await world.poll();
    lastPollFailed = result === null;
    const ids = result ?? [];
    emissions.push(ids);
    for (const id of ids) {
      const times = (emitted.get(id) ?? 0) + 1;
      emitted.set(id, times);
      if (times > 1) throw new Error(`link ${id} emitted ${times} times; polls so far: ${JSON.stringify(emissions)}`);
      if (!createdAfterStart.has(id)) throw new Error(`link ${id} existed before the trigger started but was emitted`);
    }
  };

  await poll(); // the first poll only sets the mark
  for (const command of commands) {
    switch (command.kind) {
      case 'create':
        for (const id of await world.create(command.count)) createdAfterStart.add(id);
        break;
      case 'tick':
        world.tick(command.ms);
        break;
      case 'delete': {
        const id = await world.remove(command.pick);
        if (id !== undefined) deleted.add(id);
        break;
      }
      case 'poll':
        await poll();
        break;
      case 'insertDuringPoll':
        world.insertDuringNextPoll(command.afterRequests, command.count, (ids) => ids.forEach((id) => createdAfterStart.add(id)));
        await poll();
        break;
      case 'restart':
        world.restart();
        break;
      case 'samplePoll':
        await world.samplePoll?.();
        break;
      case 'failDuringPoll':
        world.failDuringNextPoll(command.afterRequests);
        await poll();
        break;
    }
  }
  let quiet = 0;
  for (let i = 0; i < options.maxDrainPolls && quiet < 2; i++) {
    await poll();
    quiet = emissions[emissions.length - 1]!.length === 0 && !world.backlog() && !lastPollFailed ? quiet + 1 : 0;
  }

  const missing = [...createdAfterStart].filter((id) => !deleted.has(id) && !emitted.has(id));
  if (missing.length > 0) {
    throw new Error(`never emitted: ${missing.join(', ')}; polls: ${JSON.stringify(emissions)}`);
  }
  return { emissions };
}
