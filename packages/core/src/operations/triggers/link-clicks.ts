import { InputError } from '../../errors';
import type { FormReader } from '../../forms/form-values';
import { checkLinkClicksState, DEFAULT_CREATED_WITHIN_DAYS, linkIdentity, lookBackState, MAX_WATCHED_LINKS, MAX_CHOSEN_LINKS, MAX_CREATED_WITHIN_DAYS, parseMilestones, type LinkClickEvent, type LinkClicksMode, type LinkClicksScope } from '../../polls/link-clicks';
import { inLabel } from '../link-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { OperationRecord } from '../operation';
import type { Trigger } from '../trigger';

function readMode(form: FormReader): LinkClicksMode {
  return form.choice<LinkClicksMode>('clicksMode') ?? 'milestones';
}

function readMilestones(form: FormReader): number[] {
  const entries = form.list('milestones');
  const numbers = entries.flatMap((entry) => inLabel(form, 'milestones', (label) => parseMilestones(entry, label)));
  if (numbers.length === 0) throw new InputError('milestones', `Enter at least one number in "${form.label('milestones')}", for example 100, 1000, 5000.`);
  return [...new Set(numbers)].sort((a, b) => a - b);
}

function readScope(form: FormReader): LinkClicksScope {
  if (form.choice('clicksScope') === 'chosen') {
    const linkIds = form.list('linkIds');
    if (linkIds.length === 0) throw new InputError('linkIds', `Add at least one link to "${form.label('linkIds')}", or watch the links created in the last days.`);
    return { linkIds };
  }
  return { createdWithinDays: form.number('createdWithinDays') ?? DEFAULT_CREATED_WITHIN_DAYS };
}

/**
 * A link record with the click fields (the link's own `clicks` is the count now) and the event's id: the
 * link's identity with the milestone or the count, the same for a repeat of one event (for dedupe).
 */
function eventRecord(event: LinkClickEvent): OperationRecord {
  const record: OperationRecord = { ...linkRecord(event.link), clicksBefore: event.clicksBefore, clicks: event.clicks, newClicks: event.newClicks, eventId: event.id };
  if (event.milestone !== undefined) record.milestone = event.milestone;
  return record;
}

/**
 * Link Clicks: a link reached a click milestone, or got new clicks, since the last poll. Watches the links
 * created in the last days or the chosen ones; the first poll counts from now.
 */
export const linkClicksTrigger: Trigger = {
  key: 'trigger.linkClicks',
  event: 'linkClicks',
  label: 'Link Clicks',
  description: 'Starts when a short link reaches a number of clicks you choose, or when it gets new clicks.',
  fields: [
    {
      key: 'clicksMode',
      label: 'Fire On',
      kind: 'choice',
      group: 'main',
      default: 'milestones',
      help: 'Start once per link and milestone (e.g. at 100 and at 1,000 clicks), or every time a link got new clicks.',
      choices: [
        { value: 'milestones', label: 'Milestones', help: 'Once when a link reaches each number of clicks' },
        { value: 'newClicks', label: 'New Clicks', help: 'Each time a link got clicks since the last check' },
      ],
    },
    { key: 'milestones', label: 'Milestones', kind: 'list', listOf: 'number', group: 'main', default: '100, 1000', required: true, showWhen: { clicksMode: ['milestones'] }, help: 'Numbers of clicks to start at, separated by commas, e.g. 100, 1000, 5000 (write 5000, not 5,000).' },
    {
      key: 'clicksScope',
      label: 'Watch',
      kind: 'choice',
      group: 'main',
      default: 'recent',
      help: 'Which links to watch.',
      choices: [
        { value: 'recent', label: 'Links Created Recently' },
        { value: 'chosen', label: 'Chosen Links' },
      ],
    },
    { key: 'createdWithinDays', label: 'Created Within (Days)', kind: 'number', group: 'main', default: DEFAULT_CREATED_WITHIN_DAYS, min: 1, max: MAX_CREATED_WITHIN_DAYS, showWhen: { clicksScope: ['recent'] }, help: 'Watch the links created in this many last days.' },
    { key: 'linkIds', label: 'Links', kind: 'list', listOf: 'link', group: 'main', required: true, showWhen: { clicksScope: ['chosen'] }, help: `The links to watch (at most ${MAX_CHOSEN_LINKS}): their IDs.` },
  ],
  output: [
    ...LINK_OUTPUT_FIELDS,
    { key: 'clicksBefore', label: 'Clicks Before', type: 'integer', nullable: true },
    { key: 'newClicks', label: 'New Clicks', type: 'integer', nullable: true },
    { key: 'eventId', label: 'Event ID', type: 'string' },
    { key: 'milestone', label: 'Milestone', type: 'integer', when: { clicksMode: ['milestones'] } },
  ],
  sample: { ...LINK_SAMPLE, clicks: 104, clicksBefore: 97, newClicks: 7, eventId: '1042@1772357400000:m100', milestone: 100 },
  notice: `How it works: clicks are compared from check to check. The first check only takes the counts as they are; a link that passes two milestones between checks gives both at once, and a link created and clicked between two checks counts from zero. Requests per check: one per 100 links created in the last N days (an account that creates 500 links a month: 6 with the default 30 days; at most the newest ${MAX_WATCHED_LINKS.toLocaleString('en-US')} links are watched, 100 requests), or one per chosen link.`,
  async testRecords(client, form, context) {
    // Links of the scope as events with nothing counted yet: clicksBefore is the count now, newClicks 0.
    const mode = readMode(form);
    const milestones = mode === 'milestones' ? readMilestones(form) : [];
    const scope = readScope(form);
    const limit = context.maxRecords ?? 1;
    const links = 'linkIds' in scope ? await Promise.all(scope.linkIds.slice(0, limit).map((id) => client.getLink(id))) : (await client.listLinks({ limit })).links.slice(0, limit);
    return links.map((link) => {
      const clicks = typeof link.clicks === 'number' ? link.clicks : 0;
      const milestone = milestones[0];
      return eventRecord({ link, clicksBefore: clicks, clicks, newClicks: 0, id: `${linkIdentity(link)}:${milestone === undefined ? `c${clicks}` : `m${milestone}`}`, ...(milestone === undefined ? {} : { milestone }) });
    });
  },
  emptyTest: 'No link in this account yet, so there is no sample to show. The test shows a link of the account with its click fields; create a short link and test again.',
  async lookBack(client, form, context) {
    // Every milestone reached (or every link with clicks) in scope, as if nothing had been counted before.
    const { records } = await this.poll(client, form, lookBackState(), context);
    return records.map((record) => ({ ...record, clicksBefore: null, newClicks: null }));
  },
  checkState: checkLinkClicksState,
  async poll(client, form, state, context) {
    const mode = readMode(form);
    const milestones = mode === 'milestones' ? readMilestones(form) : [];
    const scope = readScope(form);
    const result = await client.pollLinkClicks(checkLinkClicksState(state), {
      mode,
      milestones,
      scope,
      ...(context.timeLimitMs === undefined ? {} : { timeLimitMs: context.timeLimitMs }),
      ...(context.maxRecords === undefined ? {} : { maxEvents: context.maxRecords }),
    });
    return { records: result.events.map(eventRecord), state: result.state, complete: result.complete, notices: result.notices };
  },
};
