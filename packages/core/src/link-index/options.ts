/** What a client's link index takes (ClientOptions.linkIndex): owned by the index, read by its lookups. */

export interface LinkIndexClientOptions {
  /** A snapshot stored by an earlier invocation (client.linkIndexSnapshot()); ignored when older than maxAgeMs. */
  snapshot?: unknown;
  /**
   * Reads the stored snapshot (and the resumable mode that goes with it) at the client's first lookup instead
   * of `snapshot` up front: a call that looks nothing up (a create, an update by id) reads nothing from the
   * host's store. A failed read fails that lookup; the next lookup reads again.
   */
  loadSnapshot?: () => Promise<{ snapshot?: unknown; resumable?: 'stored' | 'run' | 'none' }>;
  /** Age (since its walk began) after which a stored snapshot is dropped and the account read anew; default 6 h. */
  maxAgeMs?: number;
  /** Links created by others are fetched before a "none" when the last refresh is older than this; default 120 000. */
  refreshAfterMs?: number;
  /** See LinkIndexOptions.resumable; default 'run', 'stored' with a snapshot store. */
  resumable?: 'stored' | 'run' | 'none';
  /** See LinkIndexOptions.noneMaxAgeMs: a "none" only from an index read at most this long ago. */
  noneMaxAgeMs?: number;
}
