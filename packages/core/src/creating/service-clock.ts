/**
 * The clock that stamps `createdAt`, as an offset from ours (createdAt ≈ our time + offset), known only
 * from below (docs/guarantees.md, "The create rule"): a link listed in an answer was stamped before that
 * answer arrived, whatever any `Date` header says. That lower bound is the one thing a lost create's look
 * needs — the earliest a link this request stored can have been stamped — so a `Date` header from another
 * clock, one an hour off, or none at all cannot make the look start too late. (No link is ever taken as a
 * request's own on the word of a clock: only a marker proves that, lost-create.ts.)
 */
export class ServiceClock {
  private createdLow = -Infinity;

  /** A link shown in an answer received at `receivedAt`: it was stamped before then. */
  observeListed(createdAtMs: number, receivedAt: number): void {
    if (Number.isFinite(createdAtMs)) this.createdLow = Math.max(this.createdLow, createdAtMs - receivedAt);
  }

  /** The lowest offset createdAt's clock can have, by createdAt values alone: safe to prove that nothing was stored. */
  safeLow(): number {
    return this.createdLow;
  }
}
