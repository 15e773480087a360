import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { checkNewLinksState, linkRecord, runTrigger, triggerByKey, type NewLinksState } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { linkOutputFields, linkSample } from '../fields/linkOutput';
import { MAX_NEW_ITEMS_PER_POLL, readPollState, savePollState, zapKey } from './pollState';

/** Links handed to Zapier per poll at most: Zapier holds the runs of a poll with more new items. */
export const NEW_LINK_MAX_ITEMS = MAX_NEW_ITEMS_PER_POLL;
/** List requests per poll at most; the time limit below usually ends a long walk first. */
export const NEW_LINK_MAX_PAGES = 300;
/** A poll sends no request after this long: its last answers and Zapier's own work fit in the 30 s step. */
export const NEW_LINK_TIME_LIMIT_MS = 15_000;
/** The Zap editor shows at most three samples, and a short answer keeps its test fast. */
export const SAMPLE_SIZE = 3;

/**
 * How no link is lost: Zapier deduplicates by `id`, but only among what a poll returns, and it holds the
 * runs of a poll with more than 100 new items. So the trigger runs the core's pollNewLinks with at most
 * 100 links a poll: a quiet poll is one request; a burst of up to 100 links arrives in the next poll; a
 * larger backlog is caught up 100 links a poll, oldest first (the walk down to where it stopped is
 * remembered, each page is read at most twice). The state (plain JSON) lives in z.cache per Zap and per
 * connection, and moves on only past the links this poll returns.
 *
 * The first poll of a Zap (no state yet, or Zapier filling its dedupe table) sets the mark and returns the
 * newest page for Zapier's dedupe table. Without a Zap id (see pollState.ts) the trigger keeps no state
 * and returns the newest 100 links: Zapier's dedupe then fires every link of a burst of up to 100 links
 * between two polls; of a larger burst only the newest 100 (said in the log).
 */
/** The core's New Link trigger with Zapier's limits: 100 links a poll, the step's time. */
const trigger = triggerByKey('trigger.newLink');
const LIMITS = { maxLinks: NEW_LINK_MAX_ITEMS, maxPages: NEW_LINK_MAX_PAGES };

/** The newest links as link records (the core's, as every step shows them), for samples and Zapier's dedupe table. */
async function newest(client: ReturnType<typeof clientFor>, limit: number): Promise<LinkItem[]> {
  return (await client.listLinks({ limit })).links.slice(0, limit).map(linkRecord) as LinkItem[];
}

/** A link record: Zapier deduplicates polling items by their `id`. */
type LinkItem = Record<string, unknown> & { id: string };

async function perform(z: ZObject, bundle: Bundle): Promise<LinkItem[]> {
  const client = clientFor(z, bundle);
  if (bundle.meta?.isLoadingSample) return newest(client, SAMPLE_SIZE);
  const key = zapKey(z, bundle, 'new_link');
  if (key === undefined) return newest(client, MAX_NEW_ITEMS_PER_POLL);

  const saved = await readPollState<NewLinksState>(z, key, checkNewLinksState);
  const context = { timeLimitMs: NEW_LINK_TIME_LIMIT_MS, timeZone: (bundle.meta as { timezone?: string } | undefined)?.timezone || 'UTC' };
  if (saved === undefined || bundle.meta?.isPopulatingDedupe) {
    // Mark first, then read: a link created in between is returned now and again next poll (deduped),
    // never in neither.
    const { state } = await runTrigger(trigger, client, LIMITS, undefined, context);
    const links = await newest(client, MAX_NEW_ITEMS_PER_POLL);
    await savePollState(z, key, state);
    return links;
  }
  const { records, state, notices } = await runTrigger(trigger, client, LIMITS, saved, context);
  for (const notice of notices) z.console.warn(`new_link: ${notice}`);
  await savePollState(z, key, state);
  return ([...records] as LinkItem[]).reverse(); // the core returns oldest → newest; Zapier wants newest first
}

export const newLink = defineTrigger({
  key: 'new_link',
  noun: 'Link',
  display: {
    label: 'New Link',
    description:
      'Triggers when a new short link is created. Each check brings up to 100 new links; a larger batch (an import) follows over the next checks, oldest first.',
  },
  operation: {
    type: 'polling',
    perform,
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
