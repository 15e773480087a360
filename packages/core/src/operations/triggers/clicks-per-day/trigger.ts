/**
 * Clicks Per Day: once a UTC day has closed, one record per watched link (or campaign) with that day's
 * clicks. Each (link, day) once across restarts; days missed while off come on return, oldest first.
 */
import { InputError } from '../../../errors';
import type { FormReader } from '../../../forms/form-values';
import { MAX_CHOSEN_LINKS, MAX_CREATED_WITHIN_DAYS, DEFAULT_CREATED_WITHIN_DAYS } from '../../../polls/link-clicks';
import { CLICKS_PER_DAY_COST_HELP, checkClicksPerDayState, pollClicksPerDay, type ClicksPerDayScope, type ClicksPerDayUnit } from './index';
import type { OperationRecord } from '../../operation';
import { outputWhen } from '../../output';
import type { Trigger } from '../../trigger';

function readScope(form: FormReader): ClicksPerDayScope {
  const watch = form.choice<'recent' | 'chosen' | 'campaign'>('dailyScope') ?? 'recent';
  if (watch === 'chosen') {
    const linkIds = form.list('linkIds');
    if (linkIds.length === 0) throw new InputError('linkIds', `Add at least one link ID to "${form.label('linkIds')}", or watch a campaign or the links created in the last days.`);
    return { linkIds };
  }
  if (watch === 'campaign') {
    const scope: ClicksPerDayScope = { campaign: form.requiredText('campaign') };
    const source = form.text('source');
    const medium = form.text('medium');
    if (source !== undefined) scope.source = source;
    if (medium !== undefined) scope.medium = medium;
    return scope;
  }
  return { createdWithinDays: form.number('createdWithinDays') ?? DEFAULT_CREATED_WITHIN_DAYS };
}

export const clicksPerDayTrigger: Trigger = {
  key: 'trigger.clicksPerDay',
  event: 'clicksPerDay',
  label: 'Clicks Per Day',
  description: 'Starts once a day has closed (UTC), with one record per watched link — or per campaign — and that day\'s clicks.',
  fields: [
    {
      key: 'dailyScope',
      label: 'Watch',
      kind: 'choice',
      group: 'main',
      default: 'recent',
      help: `Which links to count. ${CLICKS_PER_DAY_COST_HELP}`,
      choices: [
        { value: 'recent', label: 'Links Created Recently' },
        { value: 'campaign', label: 'Links of a Campaign', help: 'Links whose target URL carries this utm_campaign' },
        { value: 'chosen', label: 'Chosen Links' },
      ],
    },
    { key: 'createdWithinDays', label: 'Created Within (Days)', kind: 'number', group: 'main', default: DEFAULT_CREATED_WITHIN_DAYS, min: 1, max: MAX_CREATED_WITHIN_DAYS, showWhen: { dailyScope: ['recent'] }, help: 'Watch the links created in this many last days.' },
    { key: 'campaign', label: 'Campaign', kind: 'text', group: 'main', required: true, showWhen: { dailyScope: ['campaign'] }, placeholder: 'e.g. spring_sale', help: 'The utm_campaign of the links, exactly as in their target URLs (capitals count).' },
    { key: 'source', label: 'Source', kind: 'text', group: 'main', showWhen: { dailyScope: ['campaign'] }, placeholder: 'e.g. newsletter', help: 'Only links with this utm_source. Leave empty for every source.' },
    { key: 'medium', label: 'Medium', kind: 'text', group: 'main', showWhen: { dailyScope: ['campaign'] }, placeholder: 'e.g. email', help: 'Only links with this utm_medium. Leave empty for every medium.' },
    { key: 'linkIds', label: 'Links', kind: 'list', listOf: 'link', group: 'main', required: true, showWhen: { dailyScope: ['chosen'] }, help: `The links to watch (at most ${MAX_CHOSEN_LINKS}): their IDs.` },
    {
      key: 'per',
      label: 'One Record Per',
      kind: 'choice',
      group: 'main',
      default: 'link',
      help: 'A record for each link and day (date, shortUrl, title, targetUrl, campaign, source, medium, linkId, clicks), or for each campaign and day (date, campaign, links, clicks: the sum over its links).',
      choices: [
        { value: 'link', label: 'Link' },
        { value: 'campaign', label: 'Campaign' },
      ],
    },
    { key: 'includeZeroDays', label: 'Include Days Without Clicks', kind: 'boolean', group: 'options', default: false, help: 'Also start for a link (or campaign) that had no click that day, with clicks 0.' },
  ],
  output: [
    { key: 'id', label: 'Event ID', type: 'string' },
    { key: 'date', label: 'Date (UTC)', type: 'date' },
    { key: 'clicks', label: 'Clicks That Day', type: 'integer' },
    ...outputWhen({ per: ['link'] }, [
      { key: 'shortUrl', label: 'Short URL', type: 'string' },
      { key: 'title', label: 'Title', type: 'string' },
      { key: 'targetUrl', label: 'Target URL', type: 'string' },
    ]),
    { key: 'campaign', label: 'Campaign', type: 'string' },
    ...outputWhen({ per: ['link'] }, [
      { key: 'source', label: 'Source', type: 'string' },
      { key: 'medium', label: 'Medium', type: 'string' },
      { key: 'linkId', label: 'Link ID', type: 'string' },
    ]),
    { key: 'links', label: 'Links in the Campaign', type: 'integer', when: { per: ['campaign'] } },
  ],
  sample: { id: '1042:2026-03-01', date: '2026-03-01', clicks: 21, shortUrl: 'https://go.example.org/spring-sale', title: 'Spring sale', targetUrl: 'https://example.org/spring?utm_campaign=spring_sale', campaign: 'spring_sale', source: '', medium: '', linkId: '1042' },
  // What the trigger does first, in the words of its form; what it sends to the service after it.
  notice: `How it works: one item per watched link (or campaign) with the clicks of each day that closed. Days are UTC days, the service's: a day closes at 00:00 UTC. A test shows yesterday; when no watched link had a click then, it shows them with 0 clicks so that there are fields to map, whatever Include Days Without Clicks says. Requests: ${CLICKS_PER_DAY_COST_HELP}`,
  async testRecords(client, form, context) {
    // Yesterday's records as the settings make them; only when that is nothing (no watched link had a click
    // yesterday and Include Days Without Clicks is off) the 0-click rows, so that there are fields to map.
    const yesterday = (includeZeroDays: boolean) =>
      pollClicksPerDay(client, undefined, { scope: readScope(form), per: form.choice<ClicksPerDayUnit>('per') ?? 'link', includeZeroDays, now: context.now ?? Date.now });
    const includeZeroDays = form.flag('includeZeroDays');
    let result = await yesterday(includeZeroDays);
    if (result.records.length === 0 && !includeZeroDays) result = await yesterday(true);
    return result.records.slice(0, context.maxRecords ?? result.records.length).map((record) => ({ ...record }) as OperationRecord);
  },
  emptyTest: "No link in scope yet, so there is no sample to show. The test shows yesterday's clicks of the watched links: check the scope (campaign, days, links) or create a link and test again.",
  async lookBack(client, form, context) {
    return (await this.poll(client, form, undefined, context)).records;
  },
  checkState: checkClicksPerDayState,
  async poll(client, form, state, context) {
    const scope = readScope(form);
    const per = form.choice<ClicksPerDayUnit>('per') ?? 'link';
    const includeZeroDays = form.flag('includeZeroDays');
    const now = context.now ?? Date.now;
    const started = now();
    const result = await pollClicksPerDay(client, checkClicksPerDayState(state), {
      scope,
      per,
      includeZeroDays,
      now,
      ...(context.maxRecords === undefined ? {} : { maxRecords: context.maxRecords }),
      // A time-limited host (Zapier): no request after the limit; the round goes on at the next poll.
      ...(context.timeLimitMs === undefined ? {} : { shouldStop: () => now() - started >= context.timeLimitMs! }),
    });
    return { records: result.records.map((record) => ({ ...record }) as OperationRecord), state: result.state, complete: result.complete, notices: result.notices };
  },
};
