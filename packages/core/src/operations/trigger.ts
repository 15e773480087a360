/**
 * A trigger is what a host polls (n8n's trigger node, a Zapier polling trigger): its form described once,
 * and one poll that takes the state the host kept from the last poll and returns the new records and the
 * state to keep. Hosts store the state as it is (plain JSON) and hand it back; they hold no rule of their own.
 */
import type { ShortLinkClient } from '../client';
import type { FormField } from '../forms/form-fields';
import type { FormReader } from '../forms/form-values';
import type { OperationContext, OperationRecord } from './operation';
import type { OutputField } from './output';

export interface TriggerContext extends OperationContext {
  /** The poll sends no request after this many ms (it goes on at the next poll). */
  timeLimitMs?: number;
  /** Records one poll hands out at most (Zapier: 100); the rest come in the next polls, none lost. */
  maxRecords?: number;
}

export interface TriggerPoll {
  /** Oldest first: one item or one Zap run each. */
  records: OperationRecord[];
  /** To keep and hand back to the next poll (plain JSON). */
  state: unknown;
  /** False: a backlog is left for the next polls. */
  complete: boolean;
  /** What the host should log. */
  notices: string[];
}

export interface Trigger {
  /** Stable key used by every host, e.g. `trigger.newLink`. */
  key: string;
  /** n8n's event value, e.g. `newLink`. */
  event: string;
  label: string;
  description: string;
  fields: readonly FormField[];
  /** The fields of each record a poll gives (key, label, type), as for an operation's records. */
  output: readonly OutputField[];
  /** One record as hosts show it before a real poll. */
  sample: OperationRecord;
  poll(client: ShortLinkClient, form: FormReader, state: unknown, context: TriggerContext): Promise<TriggerPoll>;
}
