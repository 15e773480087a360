/**
 * POST /links, exactly once as far as the account can tell (docs/guarantees.md, "The create rule"): the
 * client's part of it — the ids it handed out, the service clock it learned, the marker option — around the
 * create loop (create-once.ts), which settles a lost answer by the evidence rule (lost-create.ts).
 */
import type { CallBudget } from '../http/call-budget';
import { checkCreateInput } from '../forms/input-checks';
import { readObjectBody } from '../reading/record-readers';
import type { ServiceApi } from '../endpoints/service-api';
import type { TransportResponse } from '../http/transport';
import type { Lookups } from '../link-index/lookups';
import type { CreateLinkInput, Link, LinkCreated } from '../types';
import { createOnce, type CreateOnceIo } from './create-once';
import { completeCreatedLink } from './new-link';
import { observedPages } from './observed-pages';
import { ServiceClock } from './service-clock';

/** Ids remembered as created by this client (so that a lookup never hands out one link twice). */
const CLAIMED_IDS_KEPT = 10_000;

export interface CreatorSettings {
  maxRetries: number;
  now: () => number;
  /** Random source of the marker slug. */
  random: () => number;
  /** ClientOptions.markCreates. */
  markCreates: boolean;
}

export class ExactlyOnceCreator {
  private readonly claimed = new Set<string>();
  /** The clock that stamps createdAt, learned over the client's life. */
  private readonly clock = new ServiceClock();

  constructor(
    private readonly api: ServiceApi,
    private readonly lookups: Lookups,
    private readonly settings: CreatorSettings,
  ) {}

  async create(input: CreateLinkInput, budget: CallBudget): Promise<LinkCreated | Link> {
    const body = checkCreateInput(input);
    // Time kept for the lookup after a lost answer: a request may not use up the whole call.
    const reserveMs = Math.min(10_000, Math.floor(budget.limitMs * 0.3));
    const { maxRetries, markCreates } = this.settings;
    return createOnce(this.io(budget), body, { maxRetries, reserveMs, markCreates });
  }

  private io(budget: CallBudget): CreateOnceIo {
    const { executor } = this.api;
    const { now, random } = this.settings;
    const lastDate = () => executor.serviceClock;
    return {
      post: (sent, reserveMs) => executor.send({ method: 'POST', path: '/links', body: sent, reserveMs }, budget),
      readCreated: (answer) => readObjectBody<LinkCreated>(answer as TransportResponse, 'the created link', ['id', 'shortUrl']),
      readPage: observedPages({ listPage: (cursor) => this.api.readPage(cursor, budget), lastDate, now }, this.clock),
      pause: (ms) => executor.pauseWithin(ms, budget),
      now,
      timeLeftMs: () => budget.deadlineAt - now(),
      lastDate,
      clock: this.clock,
      claimed: this.claimed,
      claim: (link, sent) => {
        this.claim(String(link.id));
        this.lookups.remember(sent ? completeCreatedLink(link as LinkCreated, sent) : (link as Link));
      },
      random,
    };
  }

  private claim(id: string): void {
    this.claimed.add(id);
    if (this.claimed.size > CLAIMED_IDS_KEPT) this.claimed.delete(this.claimed.values().next().value!);
  }
}
