import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import {
  checkLinkClicksState,
  DEFAULT_CREATED_WITHIN_DAYS,
  InputError,
  lookBackState,
  MAX_WATCHED_LINKS,
  parseMilestones,
  relabel,
  type LinkClickEvent,
  type LinkClicksMode,
  type LinkClicksScope,
  type LinkClicksState,
} from '@shortlink/core/portable';
import { clientFor } from '../client';
import { linkOutputFields, linkSample } from '../fields/linkOutput';
import { MAX_NEW_ITEMS_PER_POLL, readPollState, savePollState, zapKey } from './pollState';
import { linkChoices } from '../fields/linkChoices';

/** Requests per poll at most: a round over the newest 10 000 links; the time limit usually ends it first. */
export const LINK_CLICKS_MAX_REQUESTS = 100;
/** A poll sends no request after this long: its last answers and Zapier's own work fit in the 30 s step. */
export const LINK_CLICKS_TIME_LIMIT_MS = 15_000;

/** The form's labels (and keys) for the core's option names, for errors. */
const LABELS: Record<string, string> = {
  mode: 'Trigger On (mode)',
  milestones: 'Milestones (milestones)',
  createdWithinDays: 'Created Within Days (created_within_days)',
  linkIds: 'Links (link_ids)',
  scope: 'Watch (scope)',
};

interface Settings {
  mode: LinkClicksMode;
  milestones: number[];
  scope: LinkClicksScope;
}

function readSettings(input: Record<string, unknown>): Settings {
  const mode = (input.mode ?? 'milestones') as LinkClicksMode;
  const milestones = mode === 'milestones' ? parseMilestones(input.milestones ?? '100, 1000', 'milestones') : [];
  if (mode === 'milestones' && milestones.length === 0) throw new InputError('milestones', 'milestones must name at least one click count, such as 100 or 1000.');
  if (input.scope === 'chosen') {
    const raw = input.link_ids;
    const ids = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map((id) => String(id).trim()).filter((id) => id !== '');
    if (ids.length === 0) throw new InputError('linkIds', 'linkIds must name at least one link, or watch the links created in the last N days.');
    return { mode, milestones, scope: { linkIds: ids } };
  }
  const text = String(input.created_within_days ?? '').trim();
  const days = text === '' ? DEFAULT_CREATED_WITHIN_DAYS : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return { mode, milestones, scope: { createdWithinDays: days } };
}

/**
 * The link with the click fields; the item's id is the event's (the link's identity — id and creation
 * time — with the milestone or the count), the link's own id is linkId.
 */
function itemOf(event: LinkClickEvent, lookBack: boolean): { id: string } & Record<string, unknown> {
  const item: { id: string } & Record<string, unknown> = {
    ...event.link,
    id: event.id,
    linkId: String(event.link.id),
    // Without a state the count before is not known: said, not guessed.
    clicksBefore: lookBack ? null : event.clicksBefore,
    clicks: event.clicks,
    newClicks: lookBack ? null : event.newClicks,
  };
  if (event.milestone !== undefined) item.milestone = event.milestone;
  return item;
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
  let settings: Settings;
  try {
    settings = readSettings(bundle.inputData as Record<string, unknown>);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(error.field, relabel(error.message, error.field, LABELS));
    throw error;
  }
  const client = clientFor(z, bundle);
  const options = { ...settings, maxEvents: MAX_NEW_ITEMS_PER_POLL, maxRequests: LINK_CLICKS_MAX_REQUESTS, timeLimitMs: LINK_CLICKS_TIME_LIMIT_MS };
  const poll = async (state: LinkClicksState | undefined) => {
    try {
      return await client.pollLinkClicks(state, options);
    } catch (error) {
      if (error instanceof InputError) throw new InputError(error.field, relabel(error.message, error.field, LABELS));
      throw error;
    }
  };
  if (bundle.meta?.isLoadingSample) {
    const { events } = await poll(lookBackState());
    return events.slice(0, 3).map((event) => itemOf(event, false));
  }
  const key = zapKey(z, bundle, 'link_clicks');
  if (key === undefined) {
    const { events, notices } = await poll(lookBackState());
    for (const notice of notices) z.console.warn(`link_clicks: ${notice}`);
    return events.map((event) => itemOf(event, true));
  }
  // A Zap turned on again starts from the counts as they are now (Zapier fills its dedupe table).
  const saved = bundle.meta?.isPopulatingDedupe ? undefined : await readPollState<LinkClicksState>(z, key, checkLinkClicksState);
  const { events, state, notices } = await poll(saved);
  for (const notice of notices) z.console.warn(`link_clicks: ${notice}`);
  await savePollState(z, key, state);
  return events.map((event) => itemOf(event, false));
}

export const linkClicks = defineTrigger({
  key: 'link_clicks',
  noun: 'Link',
  display: {
    label: 'Link Clicks',
    description:
      'Triggers when a link reaches a click milestone (100, 1,000, your own) or gets new clicks. Watches the links created in the last N days or chosen links.',
  },
  operation: {
    type: 'polling',
    perform,
    inputFields: [
      {
        key: 'mode',
        label: 'Trigger On',
        required: true,
        choices: { milestones: 'A link reached a milestone (once per link and milestone)', newClicks: 'A link got new clicks since the last check' },
        default: 'milestones',
      },
      {
        key: 'milestones',
        label: 'Milestones',
        helpText: 'Click counts, separated by commas (write 5000, not 5,000). Used when triggering on milestones.',
        default: '100, 1000',
      },
      {
        key: 'scope',
        label: 'Watch',
        required: true,
        choices: { recent: 'Links created in the last N days', chosen: 'Chosen links' },
        default: 'recent',
        helpText: `What one check costs: one request per 100 links created in the last N days (at most the newest ${MAX_WATCHED_LINKS.toLocaleString('en-US')} links are watched), or one request per chosen link. Counts are compared from check to check: a link that passes two milestones between checks gives both at once, and a link created and clicked between two checks counts from zero.`,
      },
      { key: 'created_within_days', label: 'Created Within Days', type: 'integer', default: String(DEFAULT_CREATED_WITHIN_DAYS), helpText: 'Used when watching recent links.' },
      { key: 'link_ids', label: 'Links', choices: linkChoices, list: true, helpText: 'Used when watching chosen links (at most 100).' },
    ],
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
});
