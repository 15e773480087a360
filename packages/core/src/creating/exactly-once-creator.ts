/**
 * POST /links, exactly once as far as the account can tell (docs/guarantees.md, "The create rule"): the
 * client's part of it — the ids it handed out, the service clock it learned, the marker — around the
 * create loop (create-once.ts), which settles a lost answer by the evidence rule (lost-create.ts).
 */
import type { CallBudget } from '../http/call-budget';
import { checkCreateInput } from '../forms/input-checks';
import { readObjectBody } from '../reading/record-readers';
import type { ServiceApi } from '../endpoints/service-api';
import type { TransportResponse } from '../http/transport';
import type { Lookups } from '../link-index/lookups';
import type { CreateLinkInput, Link, LinkCreated } from '../types';
import { createOnce, type CreateOnceIo, type CreateOutcome } from './create-once';
import type { ListLag } from './list-lag';
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
  /** ClientOptions.markCreates (default true): a create without a slug carries a marker slug of the client's. */
  markCreates: boolean;
  /** What the process learned of the list's lag (client/process-shared.ts). */
  listLag: ListLag;
  /** Whether the service refused a marker slug in this process, and how to say it did. */
  markers: { refused(): boolean; refuse(): void };
}

/** Per create: whether to send a marker (default the client's setting), and Find or Create's adoption rule. */
export interface CreateCallOptions {
  marker?: boolean;
  adoptSame?: boolean;
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

  /** A plain create: the link this request made, or an error (never a link it cannot prove it made). */
  async create(input: CreateLinkInput, budget: CallBudget, call: CreateCallOptions = {}): Promise<LinkCreated | Link> {
    return (await this.createOutcome(input, budget, call)).link;
  }

  async createOutcome(input: CreateLinkInput, budget: CallBudget, call: CreateCallOptions = {}): Promise<CreateOutcome> {
    const body = checkCreateInput(input);
    // Time kept for the lookup after a lost answer: a request may not use up the whole call.
    const reserveMs = Math.min(10_000, Math.floor(budget.limitMs * 0.3));
    const { maxRetries } = this.settings;
    const markCreates = call.marker ?? this.settings.markCreates;
    return createOnce(this.io(budget), body, { maxRetries, reserveMs, markCreates, ...(call.adoptSame ? { adoptSame: true } : {}) });
  }

  private io(budget: CallBudget): CreateOnceIo {
    const { executor } = this.api;
    const { now, random, listLag, markers } = this.settings;
    return {
      post: (sent, reserveMs) => executor.send({ method: 'POST', path: '/links', body: sent, reserveMs }, budget),
      readCreated: (answer) => readObjectBody<LinkCreated>(answer as TransportResponse, 'the created link', ['id', 'shortUrl']),
      readPage: observedPages({ listPage: (cursor) => this.api.readPage(cursor, budget), now }, this.clock),
      pause: (ms) => executor.pauseWithin(ms, budget),
      now,
      timeLeftMs: () => budget.deadlineAt - now(),
      clock: this.clock,
      // A lagging list shows a stored link late: the second look waits at least that lag, and a little more.
      settleMs: () => Math.ceil(listLag.estimateMs * 1.5) + 250,
      claimed: this.claimed,
      claim: (link, sent) => {
        this.claim(String(link.id));
        this.lookups.remember(sent ? completeCreatedLink(link as LinkCreated, sent) : (link as Link));
      },
      random,
      markerRefused: () => markers.refused(),
      refuseMarkers: () => markers.refuse(),
    };
  }

  private claim(id: string): void {
    this.claimed.add(id);
    if (this.claimed.size > CLAIMED_IDS_KEPT) this.claimed.delete(this.claimed.values().next().value!);
  }
}
