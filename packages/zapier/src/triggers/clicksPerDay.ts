import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { checkClicksPerDayState, runTrigger, triggerByKey, type FormValues } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { inputFieldsFor } from '../adapter/input-fields';
import { MAX_NEW_ITEMS_PER_POLL, readPollState, savePollState, zapKey } from './pollState';

const trigger = triggerByKey('trigger.clicksPerDay');
/** A check sends no request after this long: its last answers and Zapier's own work fit in the 30 s step. */
export const CLICKS_PER_DAY_TIME_LIMIT_MS = 15_000;

function valuesOf(bundle: Bundle): FormValues {
  const input = (bundle.inputData ?? {}) as Record<string, unknown>;
  return Object.fromEntries(trigger.fields.filter((field) => field.key in input).map((field) => [field.key, input[field.key]]));
}

/**
 * One item per watched link (or campaign) and closed UTC day, id `${linkId}:${date}` (or
 * `${campaign}:${date}`), so Zapier's dedupe can never run a Zap twice for one. The core keeps the last day
 * delivered per Zap and connection (z.cache); at most 100 items a check, whole days, the rest in the next
 * checks. Without a Zap id no state is kept: each check reads yesterday, and the ids let Zapier drop repeats.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const client = clientFor(z, bundle);
  const values = valuesOf(bundle);
  const context = { timeLimitMs: CLICKS_PER_DAY_TIME_LIMIT_MS, maxRecords: MAX_NEW_ITEMS_PER_POLL };
  if (bundle.meta?.isLoadingSample) {
    const { records } = await runTrigger(trigger, client, { ...values, includeZeroDays: true }, undefined, context);
    return records.slice(0, 3);
  }
  const key = zapKey(z, bundle, 'clicks_per_day');
  const saved = key === undefined || bundle.meta?.isPopulatingDedupe ? undefined : await readPollState(z, key, checkClicksPerDayState);
  const { records, state, notices } = await runTrigger(trigger, client, values, saved, context);
  for (const notice of notices) z.console.warn(`clicks_per_day: ${notice}`);
  if (key !== undefined) await savePollState(z, key, state);
  return [...records].reverse(); // the core hands out oldest first; Zapier wants newest first
}

export const clicksPerDay = defineTrigger({
  key: 'clicks_per_day',
  noun: 'Daily Clicks',
  display: {
    label: 'Clicks Per Day',
    description: 'Triggers once a day has closed (UTC), with one item per watched link — or per campaign — and that day\'s clicks.',
  },
  operation: {
    type: 'polling',
    perform,
    // The cost is in the Watch field's help (the core's CLICKS_PER_DAY_COST_HELP); a check also stops after 15 s.
    inputFields: inputFieldsFor(trigger.fields) as never,
    sample: { id: '1042:2026-03-01', date: '2026-03-01', clicks: 21, shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale', campaign: 'spring_sale', source: '', medium: '', linkId: '1042' },
    outputFields: [
      { key: 'id', label: 'Event ID', type: 'string' },
      { key: 'date', label: 'Date (UTC)', type: 'string' },
      { key: 'clicks', label: 'Clicks That Day', type: 'integer' },
      { key: 'shortUrl', label: 'Short URL', type: 'string' },
      { key: 'title', label: 'Title', type: 'string' },
      { key: 'targetUrl', label: 'Target URL', type: 'string' },
      { key: 'campaign', label: 'Campaign', type: 'string' },
      { key: 'source', label: 'Source', type: 'string' },
      { key: 'medium', label: 'Medium', type: 'string' },
      { key: 'linkId', label: 'Link ID', type: 'string' },
      { key: 'links', label: 'Links in the Campaign', type: 'integer' },
    ],
  },
} as Parameters<typeof defineTrigger>[0]);
