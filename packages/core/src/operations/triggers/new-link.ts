import { readDateTime } from '../../forms/date-input';
import { checkNewLinksState, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES } from '../../polls/new-links';
import { dateText, inLabel } from '../link-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { FormReader } from '../../forms/form-values';
import type { Trigger, TriggerContext } from '../trigger';

/** Created Since, read in the run's time zone, when Start From is Links Created Since a Date. */
function readSince(form: FormReader, context: TriggerContext): string | undefined {
  if (form.choice('startFrom') !== 'since') return undefined;
  const raw = dateText(form.raw('since'));
  if (raw === undefined || raw === null || raw === '') form.requiredText('since');
  return inLabel(form, 'since', (label) => readDateTime(raw, { field: label, timeZone: context.timeZone ?? 'UTC' }));
}

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
    {
      key: 'startFrom',
      label: 'Start From',
      kind: 'choice',
      group: 'main',
      default: 'newLinksOnly',
      help: 'Where the trigger starts when it is activated. Changing it later starts over from the new setting.',
      choices: [
        { value: 'newLinksOnly', label: 'New Links Only', help: 'The first check only remembers where the list stands; links created after it start the workflow' },
        { value: 'since', label: 'Links Created Since a Date', help: 'The first checks also deliver the links created at or after a date, oldest first' },
      ],
    },
    {
      key: 'since',
      label: 'Created Since',
      kind: 'dateTime',
      group: 'main',
      required: true,
      showWhen: { startFrom: ['since'] },
      help: "Links created at or after this moment (in the workflow's time zone) start the workflow.",
    },
    { key: 'maxLinks', label: 'Max Links per Poll', kind: 'number', group: 'options', default: DEFAULT_MAX_LINKS, min: 1, max: 10_000, help: 'How many new links one check delivers at most. More wait for the next checks, oldest first; none is skipped.' },
    {
      key: 'maxPages',
      label: 'Max Requests per Poll',
      kind: 'number',
      group: 'options',
      default: DEFAULT_MAX_PAGES,
      min: 1,
      max: 1000,
      help: 'Upper bound of list requests (100 links each) one check sends, so that a very large account is read over several checks; it goes on where it stopped at the next check.',
    },
  ],
  output: LINK_OUTPUT_FIELDS,
  sample: LINK_SAMPLE,
  notice: `Each check delivers up to ${DEFAULT_MAX_LINKS.toLocaleString('en-US')} new links (Max Links per Poll), oldest first, each once. A larger backlog (an import, a pause) is caught up over the next checks: the trigger reads the list down to where it stopped, then delivers the backlog oldest first, one batch per check. A check ends within about 45 seconds and skips its turn while the previous one still runs.`,
  startKey(form, context) {
    return readSince(form, context) ?? 'new';
  },
  async testRecords(client, _form, context) {
    const limit = context.maxRecords ?? 1;
    return (await client.listLinks({ limit })).links.slice(0, limit).map(linkRecord);
  },
  emptyTest:
    'No link in this account yet, so there is no sample to show. Create a short link (in the dashboard, or with a Short Link step) and test again; once the trigger is on, every link created after that starts it.',
  async lookBack(client, form, context) {
    return this.testRecords(client, form, { ...context, maxRecords: context.maxRecords ?? 100 });
  },
  checkState: checkNewLinksState,
  async poll(client, form, state, context) {
    const since = readSince(form, context);
    const result = await client.pollNewLinks(checkNewLinksState(state), {
      maxLinks: form.number('maxLinks') ?? DEFAULT_MAX_LINKS,
      maxPages: form.number('maxPages') ?? DEFAULT_MAX_PAGES,
      ...(since === undefined ? {} : { since }),
      ...(context.timeLimitMs === undefined ? {} : { timeLimitMs: context.timeLimitMs }),
    });
    return { records: result.links.map(linkRecord), state: result.state, complete: result.complete, notices: result.notices };
  },
};
