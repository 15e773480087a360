import { readDateTime } from '../../forms/date-input';
import { checkNewLinksState, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES } from '../../polls/new-links';
import { dateText, inLabel } from '../link-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Trigger } from '../trigger';

/**
 * New Link: the links created since the last poll, oldest first, as link records. The first poll starts
 * from now (or from Created Since); a backlog larger than Max Links per Poll follows in the next polls.
 */
export const newLinkTrigger: Trigger = {
  key: 'trigger.newLink',
  event: 'newLink',
  label: 'New Link',
  description: 'Starts when a short link is created in the account (by anyone: the dashboard, the API or a workflow).',
  fields: [
    { key: 'since', label: 'Created Since', kind: 'dateTime', group: 'options', help: 'On the first check, also start for the links created since this date and time. Empty: only links created from now on.' },
    { key: 'maxLinks', label: 'Max Links per Poll', kind: 'number', group: 'options', default: DEFAULT_MAX_LINKS, min: 1, help: 'At most this many links per check; more follow at the next checks, oldest first.' },
    { key: 'maxPages', label: 'Max Requests per Poll', kind: 'number', group: 'options', default: DEFAULT_MAX_PAGES, min: 1, help: 'At most this many requests per check (100 links each), so that a very large account is read over several checks.' },
  ],
  output: LINK_OUTPUT_FIELDS,
  sample: LINK_SAMPLE,
  async poll(client, form, state, context) {
    const rawSince = dateText(form.raw('since'));
    const since =
      rawSince === undefined || rawSince === null || rawSince === ''
        ? undefined
        : inLabel(form, 'since', (label) => readDateTime(rawSince, { field: label, timeZone: context.timeZone ?? 'UTC' }));
    const result = await client.pollNewLinks(checkNewLinksState(state), {
      maxLinks: form.number('maxLinks') ?? DEFAULT_MAX_LINKS,
      maxPages: form.number('maxPages') ?? DEFAULT_MAX_PAGES,
      ...(since === undefined ? {} : { since }),
      ...(context.timeLimitMs === undefined ? {} : { timeLimitMs: context.timeLimitMs }),
    });
    return { records: result.links.map(linkRecord), state: result.state, complete: result.complete, notices: result.notices };
  },
};
