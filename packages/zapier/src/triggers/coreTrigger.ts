/**
 * A Zapier polling trigger over one core trigger, the same way for every trigger the exposure table offers:
 * the core's form (its fields, less those the table fixes), one poll of the core with the state kept per
 * Zap and connection in z.cache, the core's test records as Zapier's sample, the core's look-back where no
 * state can be kept. Output fields and sample are generated (adapter/output-fields.ts).
 *
 * How no event is lost or repeated: Zapier deduplicates by `id`, but only among what a poll returns, and it
 * holds the runs of a poll with more than 100 new items. So a poll hands out at most 100 records (the core
 * keeps the rest for the next polls, oldest first), newest first as Zapier wants them, each with an id that
 * names its event; the state moves on only past what this poll returns (saved last). The first poll of a Zap
 * (no state yet, or Zapier filling its dedupe table) that has nothing new returns the look-back, so that
 * Zapier's dedupe table knows what happened before.
 */
import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { FormReader, runTrigger, type FormValues, type OperationRecord, type Trigger, type TriggerContext } from '@shortlink/core/operations';
import { isOffered, sheetSafeRecord, triggerExposureOf } from '@shortlink/core/host';
import { clientFor } from '../client';
import { inputFieldsFor } from '../adapter/input-fields';
import { triggerOutputFields, triggerSample, zapierItem } from '../adapter/output-fields';
import { shownFields } from '../adapter/step';
import { MAX_NEW_ITEMS_PER_POLL, readPollState, savePollState, zapKey } from './pollState';

/** A poll sends no request after this long: its last answers and Zapier's own work fit in the 30 s step. */
export const TRIGGER_TIME_LIMIT_MS = 15_000;
/** The Zap editor shows at most three samples, and a short answer keeps its test fast. */
export const SAMPLE_SIZE = 3;

/** A record as Zapier gets it: its event's id (zapierItem), and sheet-safe like every step's (the core's rule). */
const handOn = (record: OperationRecord): OperationRecord => sheetSafeRecord(zapierItem(record));

function valuesOf(trigger: Trigger, bundle: Bundle, fixed: FormValues): FormValues {
  const input = (bundle.inputData ?? {}) as Record<string, unknown>;
  return { ...Object.fromEntries(trigger.fields.filter((field) => field.key in input).map((field) => [field.key, input[field.key]])), ...fixed };
}

export function zapierTrigger(trigger: Trigger) {
  const offered = triggerExposureOf(trigger).zapier;
  if (!isOffered(offered)) throw new Error(`Zapier does not offer ${trigger.key}: ${offered.notOffered}`);
  const exposure = offered;
  const fixed = exposure.fixed ?? {};

  async function perform(z: ZObject, bundle: Bundle): Promise<OperationRecord[]> {
    const client = clientFor(z, bundle);
    const values = valuesOf(trigger, bundle, fixed);
    const form = new FormReader(values, trigger.fields);
    const timeZone = (bundle.meta as { timezone?: string | null } | undefined)?.timezone || 'UTC';
    const context: TriggerContext = { timeLimitMs: TRIGGER_TIME_LIMIT_MS, maxRecords: MAX_NEW_ITEMS_PER_POLL, timeZone };
    if (bundle.meta?.isLoadingSample) return (await trigger.testRecords(client, form, { ...context, maxRecords: SAMPLE_SIZE })).map(handOn);
    const key = zapKey(z, bundle, exposure.key);
    if (key === undefined) return (await trigger.lookBack(client, form, context)).map(handOn);
    const saved = bundle.meta?.isPopulatingDedupe ? undefined : await readPollState(z, key, (stored) => trigger.checkState(stored));
    const { records, state, notices } = await runTrigger(trigger, client, values, saved, context);
    for (const notice of notices) z.console.warn(`${exposure.key}: ${notice}`);
    const items = saved === undefined && records.length === 0 ? await trigger.lookBack(client, form, context) : [...records].reverse(); // the core hands out oldest first
    await savePollState(z, key, state);
    return items.map(handOn);
  }

  return defineTrigger({
    key: exposure.key,
    noun: exposure.noun,
    display: { label: exposure.label, description: trigger.description },
    operation: {
      type: 'polling',
      perform,
      inputFields: inputFieldsFor(shownFields(trigger.fields, fixed)),
      sample: triggerSample(trigger),
      outputFields: triggerOutputFields(trigger),
    },
  } as Parameters<typeof defineTrigger>[0]);
}
