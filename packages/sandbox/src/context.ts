/** What the route plugins share: the state, the limiter, the fault dice, the clock, the base URL. */
import type { FaultInjector } from './faults';
import type { RateLimiter } from './rate-limiter';
import type { ServiceQuirks } from './quirks';
import type { Store } from './store';

export interface SandboxContext {
  store: Store;
  limiter: RateLimiter;
  faults: FaultInjector;
  now: () => number;
  /** Quirks switched on by tests (quirks.ts); empty by default. */
  quirks: ServiceQuirks;
  /** Known once the server listens; read at request time. */
  baseUrl: string;
}
