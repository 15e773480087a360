/**
 * The clock that stamps `createdAt`, as an offset from ours (createdAt ≈ our time + offset), known only
 * within bounds (docs/guarantees.md, "The create rule"). Two kinds of evidence, kept apart because a
 * gateway's `Date` header may come from another clock than the one that stamps `createdAt`:
 * - createdAt values: a link listed in an answer was stamped before that answer arrived (a lower bound,
 *   valid whatever the Date header says); a link this client created was stamped between its send and its
 *   answer (both bounds, as tight as the round trip).
 * - Date headers: whole seconds, read between the request's send and its answer; trusted for createdAt only
 *   within DATE_TO_CREATED_AT_MARGIN_MS, and only while no createdAt value contradicts them.
 */

/** How far the Date clock may be off the createdAt clock and still be used to narrow a create's window. */
export const DATE_TO_CREATED_AT_MARGIN_MS = 1_000;

export interface OffsetBounds {
  low: number;
  /** Infinity when nothing bounds the offset from above (no own create, no trusted Date). */
  high: number;
}

export class ServiceClock {
  private createdLow = -Infinity;
  private createdHigh = Infinity;
  private dateLow = -Infinity;
  private dateHigh = Infinity;
  private dateSeen = false;

  /** A Date header (whole seconds) of an answer to a request sent at `sentAt` and answered at `receivedAt` (our clock). */
  observeDate(dateMs: number, sentAt: number, receivedAt: number): void {
    if (!Number.isFinite(dateMs)) return;
    this.dateSeen = true;
    this.dateLow = Math.max(this.dateLow, dateMs - receivedAt);
    this.dateHigh = Math.min(this.dateHigh, dateMs + 1_000 - sentAt);
  }

  /** A link shown in an answer received at `receivedAt`: it was stamped before then. */
  observeListed(createdAtMs: number, receivedAt: number): void {
    if (Number.isFinite(createdAtMs)) this.createdLow = Math.max(this.createdLow, createdAtMs - receivedAt);
  }

  /** A link this client's request (sent at `sentAt`, answered at `receivedAt`) created. */
  observeOwnCreate(createdAtMs: number, sentAt: number, receivedAt: number): void {
    if (!Number.isFinite(createdAtMs)) return;
    this.observeListed(createdAtMs, receivedAt);
    this.createdHigh = Math.min(this.createdHigh, createdAtMs - sentAt);
  }

  /** The lowest offset createdAt's clock can have, by createdAt values alone: safe to prove that nothing was stored. */
  safeLow(): number {
    return this.createdLow;
  }

  /** Whether the Date headers agree with each other and with the createdAt values, within the margin. */
  dateTrusted(): boolean {
    if (!this.dateSeen || this.dateLow > this.dateHigh) return false;
    const margin = DATE_TO_CREATED_AT_MARGIN_MS;
    return this.dateLow - margin <= this.createdHigh && this.dateHigh + margin >= this.createdLow;
  }

  /** The narrowest bounds the evidence allows, to tell this request's link from others made around it. */
  tight(): OffsetBounds {
    const margin = DATE_TO_CREATED_AT_MARGIN_MS;
    if (!this.dateTrusted()) return { low: this.createdLow, high: this.createdHigh };
    return { low: Math.max(this.createdLow, this.dateLow - margin), high: Math.min(this.createdHigh, this.dateHigh + margin) };
  }
}
