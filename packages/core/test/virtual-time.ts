/**
 * Virtual time for simulations with many concurrent clients: every `sleep` (pacing waits, simulated network
 * latency) is a timer on one shared clock that moves only when everything else is idle, straight to the
 * next timer. Unlike `fakeClock`, whose sleeps return at once, concurrent sleepers overlap as in real time,
 * so requests of several clients really are "on the way" at the same moment.
 */
export interface VirtualTime {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Runs until `work` settles, advancing the clock whenever nothing else can happen. */
  run<T>(work: Promise<T>): Promise<T>;
}

export function virtualTime(start = Date.parse('2026-03-01T09:30:00.000Z')): VirtualTime {
  let current = start;
  let order = 0;
  const timers: Array<{ at: number; order: number; fire: () => void }> = [];

  const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: current + Math.max(0, ms), order: order++, fire: resolve };
      timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          timers.splice(timers.indexOf(timer), 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });

  /** Lets every promise chain that can run, run. */
  const idle = async (): Promise<void> => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  return {
    now: () => current,
    sleep,
    async run<T>(work: Promise<T>): Promise<T> {
      let settled = false;
      work.then(
        () => (settled = true),
        () => (settled = true),
      );
      for (;;) {
        await idle();
        if (settled) return work;
        if (timers.length === 0) throw new Error('virtual time: nothing scheduled, but the work has not ended');
        timers.sort((a, b) => a.at - b.at || a.order - b.order);
        const next = timers.shift()!;
        current = Math.max(current, next.at);
        next.fire();
      }
    },
  };
}
