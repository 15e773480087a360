/** Fault injection: which failure, if any, a request suffers. Deterministic with a randomSeed. */
import type { CreateFault, FaultOptions } from './types';

/** What happens to a request after it was processed (its write, if any, is stored). */
export type AfterFault = 'none' | 'reset' | 'serverError' | 'gatewayTimeout' | 'timeout' | 'brokenBody';

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'resetBefore' }
  | { kind: 'rateLimitStorm' }
  | { kind: 'serverError'; status: 500 | 502 | 503 }
  /** A create's fault from the script (FaultOptions.createFaults), applied once its body is read. */
  | { kind: 'scripted'; fault: CreateFault };

/** mulberry32: a tiny seedable generator, enough for reproducible dice. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkRate(name: keyof FaultOptions, value: number | undefined): void {
  if (value !== undefined && !(value >= 0 && value <= 1)) throw new Error(`faults.${name} must be between 0 and 1`);
}

export class FaultInjector {
  private options: FaultOptions = {};
  private random: () => number = Math.random;
  private createScript: CreateFault[] = [];

  constructor(options?: FaultOptions) {
    this.configure(options);
  }

  configure(options: FaultOptions | undefined): void {
    const next = { ...(options ?? {}) };
    for (const name of ['errorRate', 'resetBeforeRate', 'resetAfterRate', 'rateLimitStormRate', 'serverErrorAfterRate', 'brokenBodyAfterRate', 'timeoutAfterRate', 'lateWriteRate'] as const) {
      checkRate(name, next[name]);
    }
    if (next.latencyMs !== undefined && !(next.latencyMs >= 0)) throw new Error('faults.latencyMs must be 0 or more');
    if (next.hangMs !== undefined && !(next.hangMs >= 0)) throw new Error('faults.hangMs must be 0 or more');
    this.options = next;
    this.createScript = [...(next.createFaults ?? [])];
    this.random = next.randomSeed === undefined ? Math.random : seededRandom(next.randomSeed);
  }

  get latencyMs(): number {
    return this.options.latencyMs ?? 0;
  }

  get hangMs(): number {
    return this.options.hangMs ?? 2_000;
  }

  /** Decided before processing. A scripted create takes the next fault of the script; else one die per fault kind, in a fixed order. */
  before(isCreate = false): FaultDecision {
    const scripted = isCreate ? this.createScript.shift() : undefined;
    if (scripted !== undefined) return { kind: 'scripted', fault: scripted };
    const { resetBeforeRate = 0, rateLimitStormRate = 0, errorRate = 0, lateWriteRate = 0 } = this.options;
    if (isCreate && lateWriteRate > 0 && this.random() < lateWriteRate) return { kind: 'scripted', fault: 'lateWrite' };
    if (resetBeforeRate > 0 && this.random() < resetBeforeRate) return { kind: 'resetBefore' };
    if (rateLimitStormRate > 0 && this.random() < rateLimitStormRate) return { kind: 'rateLimitStorm' };
    if (errorRate > 0 && this.random() < errorRate) {
      const statuses = [500, 502, 503] as const;
      return { kind: 'serverError', status: statuses[Math.floor(this.random() * statuses.length)] };
    }
    return { kind: 'none' };
  }

  /** Decided after processing: answered as processed, or the answer lost in one of three ways. */
  after(method: string): AfterFault {
    const { resetAfterRate = 0, serverErrorAfterRate = 0, brokenBodyAfterRate = 0, timeoutAfterRate = 0, afterFaultMethods } = this.options;
    if (afterFaultMethods && !afterFaultMethods.includes(method.toUpperCase())) return 'none';
    if (resetAfterRate > 0 && this.random() < resetAfterRate) return 'reset';
    if (serverErrorAfterRate > 0 && this.random() < serverErrorAfterRate) return 'serverError';
    if (brokenBodyAfterRate > 0 && this.random() < brokenBodyAfterRate) return 'brokenBody';
    if (timeoutAfterRate > 0 && this.random() < timeoutAfterRate) return 'timeout';
    return 'none';
  }
}
