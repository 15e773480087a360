/** What the route plugins share: the state, the limiter, the fault dice, the clock, the base URL. */
import type { FaultInjector } from './faults';
import type { RateLimiter } from './rate-limiter';
import type { Store } from './store';
import type { Link, ServiceQuirks } from './types';

export interface SandboxContext {
  store: Store;
  limiter: RateLimiter;
  faults: FaultInjector;
  now: () => number;
  /** Known once the server listens; read at request time. */
  baseUrl: string;
  /** Quirks switched on by tests (types.ts ServiceQuirks, quirks.ts); empty by default. */
  quirks: ServiceQuirks;
  /** Second-caller creates waiting for their moment (ServiceQuirks.secondCaller), and the ones made. */
  pendingSecondCalls: Array<{ at: number; accountId: string; body: unknown }>;
  secondCallerLinks: Link[];
}
