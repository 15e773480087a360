/**
 * A shared fake clock for the sandbox (`now`: createdAt, rate-limit windows) and the core client (`now`,
 * `sleep`): a Retry-After of 30 s costs no real time, and equal timestamps happen on purpose.
 */
export class FakeClock {
  constructor(private current = Date.parse('2026-11-22T10:00:00.000Z')) {}

  readonly now = (): number => this.current;

  /** Moves time on by the wait and yields, so that other calls get their turn as with a real timer. */
  readonly sleep = async (ms: number): Promise<void> => {
    this.current += Math.max(0, Math.ceil(ms));
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  advance(ms: number): void {
    this.current += ms;
  }
}
