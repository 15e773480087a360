import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { checkLinkClicksState, lookBackState, runTrigger, triggerByKey, type FormValues, type OperationRecord } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { inputFieldsFor } from '../adapter/input-fields';
import { linkOutputFields, linkSample } from '../fields/linkOutput';
import { MAX_NEW_ITEMS_PER_POLL, readPollState, savePollState, zapKey } from './pollState';

/** The core's Link Clicks trigger: the same form, checks and events as n8n's Short Link Trigger. */
const trigger = triggerByKey('trigger.linkClicks');
/** A poll sends no request after this long: its last answers and Zapier's own work fit in the 30 s step. */
export const LINK_CLICKS_TIME_LIMIT_MS = 15_000;

function valuesOf(bundle: Bundle): FormValues {
  const input = (bundle.inputData ?? {}) as Record<string, unknown>;
  return Object.fromEntries(trigger.fields.filter((field) => field.key in input).map((field) => [field.key, input[field.key]]));
}

/**
 * The link with the click fields; the item's id is the event's (the link's identity — id and creation
 * time — with the milestone or the count), the link's own id is linkId.
 */
function itemOf(record: OperationRecord, lookBack: boolean): { id: string } & Record<string, unknown> {
  const { eventId, ...link } = record;
  return {
    ...link,
    id: String(eventId),
    linkId: String(record.id),
    // Without a state the count before is not known: said, not guessed.
    ...(lookBack ? { clicksBefore: null, newClicks: null } : {}),
  };
}

/**
 * Milestones reached or new clicks since the last poll, at most 100 items a poll (the rest follow, none
 * lost). The core keeps the counts (per Zap and connection in z.cache, bound to the account); item ids are
 * `${linkId}@${createdAt ms}:m${milestone}` and `…:c${clicks}` (the link's identity, core identity.ts), so
 * Zapier's dedupe can never fire one twice, and a link recreated under a reused id fires its own.
 * Without a Zap id (see pollState.ts) no state is kept: each poll reports every milestone reached (or
 * every link with clicks) among the newest links in scope, 100 at most, and Zapier's dedupe fires the
 * ones it has not seen; clicksBefore and newClicks are then null.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const client = clientFor(z, bundle);
  const values = valuesOf(bundle);
  const context = { timeLimitMs: LINK_CLICKS_TIME_LIMIT_MS, maxRecords: MAX_NEW_ITEMS_PER_POLL };
  const poll = (state: unknown) => runTrigger(trigger, client, values, state, context);
  if (bundle.meta?.isLoadingSample) {
    const { records } = await poll(lookBackState());
    return records.slice(0, 3).map((record) => itemOf(record, false));
  }
  const key = zapKey(z, bundle, 'link_clicks');
  if (key === undefined) {
    const { records, notices } = await poll(lookBackState());
    for (const notice of notices) z.console.warn(`link_clicks: ${notice}`);
    return records.map((record) => itemOf(record, true));
  }
  // A Zap turned on again starts from the counts as they are now (Zapier fills its dedupe table).
  const saved = bundle.meta?.isPopulatingDedupe ? undefined : await readPollState(z, key, checkLinkClicksState);
  const { records, state, notices } = await poll(saved);
  for (const notice of notices) z.console.warn(`link_clicks: ${notice}`);
  await savePollState(z, key, state);
  return records.map((record) => itemOf(record, false));
}

export const linkClicks = defineTrigger({
  key: 'link_clicks',
  noun: 'Link',
  display: {
    label: 'Link Clicks',
    description:
      'Triggers when a link reaches a click milestone (100, 1,000, your own) or gets new clicks. Watches the links created in the last days or chosen links.',
  },
  operation: {
    type: 'polling',
    perform,
    inputFields: inputFieldsFor(trigger.fields) as never,
    sample: { ...linkSample, id: '1042@1772357400000:m100', linkId: '1042', clicks: 104, clicksBefore: 97, newClicks: 7, milestone: 100 },
    outputFields: [
      { key: 'id', label: 'Event ID', type: 'string' },
      { key: 'linkId', label: 'Link ID', type: 'string' },
      ...linkOutputFields.filter((field) => field.key !== 'id'),
      { key: 'clicksBefore', label: 'Clicks Before', type: 'integer' },
      { key: 'newClicks', label: 'New Clicks', type: 'integer' },
      { key: 'milestone', label: 'Milestone', type: 'integer' },
    ],
  },
} as Parameters<typeof defineTrigger>[0]);
