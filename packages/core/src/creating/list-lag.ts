/**
 * How long the list of links takes to show a link after its create answered, learned from this process's
 * own creates (docs/guarantees.md, "Many callers"). A service may list from a replica that lags the write;
 * the spec says nothing. Every create that is looked for afterwards (Find or Create's look for twins)
 * teaches it: a look that began `ms` after the create was sent and showed the link bounds the lag from
 * above. The settle wait after a lost answer, and the wait before a look for twins, are at least that
 * long, so a lagging list costs waiting, not a second link.
 */

/** Observations kept: the largest of the recent ones counts (a lag that grew is not forgotten at once). */
const SAMPLES_KEPT = 8;

export class ListLag {
  private samples: number[] = [];

  /** A look that began `shownAfterMs` after the create was sent showed the link. */
  observeShown(shownAfterMs: number): void {
    if (!Number.isFinite(shownAfterMs) || shownAfterMs < 0) return;
    this.samples.push(shownAfterMs);
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
  }

  /** A look that began `notShownAfterMs` after the create answered did not show it yet: the lag is at least that. */
  observeNotShown(notShownAfterMs: number): void {
    if (!Number.isFinite(notShownAfterMs) || notShownAfterMs <= 0) return;
    // Kept as an observation of its own: the next look waits at least this long.
    this.samples.push(notShownAfterMs);
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
  }

  /** The lag to allow for: the largest recent observation (0 before any). */
  get estimateMs(): number {
    return this.samples.length === 0 ? 0 : Math.max(...this.samples);
  }
}
