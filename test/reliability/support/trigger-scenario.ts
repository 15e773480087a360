/**
 * Random interleavings for the new-link triggers: creates (bursts larger than a page, equal timestamps,
 * links without a readable createdAt), deletes, polls, overlapping polls, links inserted while a poll is
 * paging, restarts from the saved state, a credential switched to another account, cursors the service
 * refuses, and cursors that lead in a circle. One interpreter runs them against any "world" (the
 * in-memory model with the core algorithm, or the sandbox with a host's trigger) and checks that every
 * link is handed out exactly once, oldest first, and nothing that was there before.
 */
import fc from 'fast-check';

export type TriggerCommand =
  | { kind: 'create'; count: number }
  | { kind: 'createUndated'; count: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'poll' }
  | { kind: 'overlappingPoll' }
  | { kind: 'insertDuringPoll'; afterRequests: number; count: number }
  | { kind: 'restart' }
  | { kind: 'samplePoll' }
  | { kind: 'failDuringPoll'; afterRequests: number }
  | { kind: 'switchAccount' }
  | { kind: 'expireCursors' }
  | { kind: 'circleDuringPoll' };

/** The commands a world may not support; the arbitrary draws them only when asked to. */
export type OptionalCommand = 'overlappingPoll' | 'switchAccount' | 'createUndated' | 'expireCursors' | 'circleDuringPoll';

export interface TriggerWorld {
  tick(ms: number): void;
  /** Creates `count` links now on the current account; returns their ids. */
  create(count: number): Promise<string[]>;
  /** Creates `count` links whose createdAt cannot be read. */
  createUndated?(count: number): Promise<string[]>;
  /** Deletes one existing link of the current account chosen by `pick`; returns its id (undefined when none exists). */
  remove(pick: number): Promise<string | undefined>;
  /** Creates `count` links right before the `afterRequests`-th list request of the next poll. */
  insertDuringNextPoll(afterRequests: number, count: number, created: (ids: string[]) => void): void;
  /** One poll; the ids it hands out (after the host's own deduplication) in the order they were handed out, null when it died on an injected failure. */
  poll(): Promise<string[] | null>;
  /** Two polls started at once, as n8n does when a poll outlasts its interval. */
  overlappingPolls?(): Promise<Array<string[] | null>>;
  /** Drops everything in memory, keeps only the stored state (as JSON), as after a process restart. */
  restart(): void;
  /**
   * True while the stored state holds work for later polls (a catch-up, a first run still going on, a
   * probe below the mark, a first pass over a list served oldest first): such a poll is not quiet.
   */
  backlog(): boolean;
  /** A poll for a sample (n8n's manual test, Zapier's sample loading): must leave the state alone. */
  samplePoll?(): Promise<void>;
  /**
   * Makes the `afterRequests`-th list request from now fail (a poll dying between its pages). The
   * world's poll returns null for a poll that failed that way, and rethrows any other error.
   */
  failDuringNextPoll(afterRequests: number): void;
  /** The credential now names the other account of the world. */
  switchAccount?(): void;
  /** The service forgets every cursor it handed out so far (the next one carried is refused, 422). */
  expireCursors?(): void;
  /** The next poll's cursors lead in a circle; the world's poll returns null when it reported the circle. */
  circleDuringNextPoll?(): void;
  /** When a link was created (for the order check); undefined for links the check cannot place. */
  createdAt?(id: string): number | undefined;
  /** True while a link without a readable date made now may count as there before (see the core README). */
  undatedMayBeOld?(): boolean;
}

export interface ScenarioOptions {
  /**
   * Bound on the polls after the last command. Draining stops earlier once two polls in a row emit
   * nothing, save no backlog and see no link made while they page: then the newest link is known and
   * handled. (A poll that saved a backlog, a probe among it, may spend the next poll below the top; a
   * link inserted while a poll pages, also one scheduled for a later request than that poll sent, may
   * come only at the poll after it.)
   */
  maxDrainPolls: number;
  /** Most links one poll may hand out (Zapier: 100). */
  maxPerPoll?: number;
}

export function commandArbitrary(options: { burst: number; burstSpan?: number; maxInsert?: number; extras?: OptionalCommand[] }): fc.Arbitrary<TriggerCommand> {
  const extras = new Set(options.extras ?? []);
  const arbitraries: Array<fc.WeightedArbitrary<TriggerCommand>> = [
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
  ];
  if (extras.has('overlappingPoll')) arbitraries.push({ weight: 2, arbitrary: fc.constant({ kind: 'overlappingPoll' as const }) });
  if (extras.has('switchAccount')) arbitraries.push({ weight: 1, arbitrary: fc.constant({ kind: 'switchAccount' as const }) });
  if (extras.has('createUndated')) arbitraries.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('createUndated' as const), count: fc.integer({ min: 1, max: 2 }) }) });
  if (extras.has('expireCursors')) arbitraries.push({ weight: 1, arbitrary: fc.constant({ kind: 'expireCursors' as const }) });
  if (extras.has('circleDuringPoll')) arbitraries.push({ weight: 1, arbitrary: fc.constant({ kind: 'circleDuringPoll' as const }) });
  return fc.oneof(...arbitraries);
}

export interface ScenarioResult {
  /** Ids per poll, in the order emitted (the initial poll included). */
  emissions: string[][];
}

/**
 * Runs the commands after an initial poll, then drains, and asserts:
 * - no link is emitted twice (checked after every poll);
 * - nothing that existed before the trigger started on the current account is emitted (a credential
 *   switched to another account starts over there);
 * - links come oldest first (by creation time, where the world can tell it);
 * - no poll hands out more than `maxPerPoll`;
 * - every link created after the start on the current account and never deleted is emitted.
 */
export async function runScenario(world: TriggerWorld, commands: TriggerCommand[], options: ScenarioOptions): Promise<ScenarioResult> {
  const emissions: string[][] = [];
  const emitted = new Map<string, number>();
  let required = new Set<string>();
  const either = new Set<string>(); // may come out once, or count as there before
  const deleted = new Set<string>();
  let account = 0; // the account the credential names
  let stateAccount = 0; // the account the trigger's state belongs to
  let lastAt = Number.NEGATIVE_INFINITY;

  let lastPollFailed = false;
  const take = (result: string[] | null): void => {
    lastPollFailed = result === null;
    const ids = result ?? [];
    emissions.push(ids);
    if (result !== null && stateAccount !== account) {
      // The first poll on another account only sets its mark there (a link made while it paged may come).
      const early = ids.filter((id) => !either.has(id));
      if (early.length > 0) throw new Error(`the first poll after switching accounts handed out ${early.join(', ')}`);
      stateAccount = account;
      required = new Set();
      lastAt = Number.NEGATIVE_INFINITY;
      for (const id of ids) emitted.set(id, 1);
      emissions[emissions.length - 1] = ids;
      return;
    }
    if (options.maxPerPoll !== undefined && ids.length > options.maxPerPoll) throw new Error(`one poll handed out ${ids.length} links (at most ${options.maxPerPoll})`);
    for (const id of ids) {
      const times = (emitted.get(id) ?? 0) + 1;
      emitted.set(id, times);
      if (times > 1) throw new Error(`link ${id} emitted ${times} times; polls so far: ${JSON.stringify(emissions)}`);
      if (!required.has(id) && !either.has(id)) throw new Error(`link ${id} existed before the trigger started but was emitted`);
      const at = world.createdAt?.(id);
      if (at !== undefined) {
        if (at < lastAt) throw new Error(`link ${id} handed out after a newer one; polls so far: ${JSON.stringify(emissions)}`);
        lastAt = at;
      }
    }
  };
  let polling = false;
  let madeWhilePolling = false;
  const poll = async (): Promise<void> => {
    polling = true;
    madeWhilePolling = false;
    try {
      take(await world.poll());
    } finally {
      polling = false;
    }
  };
  const made = (ids: string[], undated = false): void => {
    if (polling && ids.length > 0) madeWhilePolling = true;
    for (const id of ids) {
      if (stateAccount !== account) {
        // Before the first poll on this account: there before; while that poll pages: either.
        if (polling) either.add(id);
        continue;
      }
      if (undated && world.undatedMayBeOld?.()) either.add(id);
      else required.add(id);
    }
  };

  await poll(); // the first poll only sets the mark
  for (const command of commands) {
    switch (command.kind) {
      case 'create':
        made(await world.create(command.count));
        break;
      case 'createUndated':
        if (world.createUndated) made(await world.createUndated(command.count), true);
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
      case 'overlappingPoll':
        if (world.overlappingPolls) for (const result of await world.overlappingPolls()) take(result);
        else await poll();
        break;
      case 'insertDuringPoll':
        world.insertDuringNextPoll(command.afterRequests, command.count, (ids) => made(ids));
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
      case 'switchAccount':
        if (world.switchAccount) {
          world.switchAccount();
          account = 1 - account;
        }
        break;
      case 'expireCursors':
        world.expireCursors?.();
        break;
      case 'circleDuringPoll':
        world.circleDuringNextPoll?.();
        await poll();
        break;
    }
  }
  let quiet = 0;
  for (let i = 0; i < options.maxDrainPolls && quiet < 2; i++) {
    await poll();
    quiet = emissions[emissions.length - 1]!.length === 0 && !world.backlog() && !lastPollFailed && !madeWhilePolling ? quiet + 1 : 0;
  }

  const missing = [...required].filter((id) => !deleted.has(id) && !emitted.has(id));
  if (missing.length > 0) {
    throw new Error(`never emitted: ${missing.join(', ')}; polls: ${JSON.stringify(emissions)}`);
  }
  return { emissions };
}
