/**
 * One poll at a time per trigger. Two polls that overlap read the same stored state and both hand out
 * the links after it, so the second one must not run: it returns at once and the next tick goes on. The
 * guard lives in the host process, which is enough where every poll of a trigger runs in one process
 * (n8n runs polls on its main instance, also in queue mode). Any trigger event can use it.
 */

export interface PollGuard {
  /** Runs `poll` unless a poll with the same key is still running; then `{ ran: false }` at once. */
  run<T>(key: string, poll: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false; runningForMs: number }>;
}

export interface PollGuardOptions {
  /**
   * A poll holding its key longer than this is taken for lost (a host that never settled it) and no
   * longer blocks; make it well above the longest a poll may take. Default 10 minutes.
   */
  staleAfterMs?: number;
  now?: () => number;
}

export function createPollGuard(options: PollGuardOptions = {}): PollGuard {
  const staleAfterMs = options.staleAfterMs ?? 10 * 60_000;
  const now = options.now ?? (() => Date.now());
  const running = new Map<string, { startedAt: number; token: object }>();
  return {
    async run(key, poll) {
      const current = running.get(key);
      const at = now();
      if (current && at - current.startedAt < staleAfterMs) return { ran: false, runningForMs: at - current.startedAt };
      const token = {};
      running.set(key, { startedAt: at, token });
      try {
        return { ran: true, value: await poll() };
      } finally {
        // A stale entry may have been replaced meanwhile: only the owner of the entry removes it.
        if (running.get(key)?.token === token) running.delete(key);
      }
    },
  };
}
