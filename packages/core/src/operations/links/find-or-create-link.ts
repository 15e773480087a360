import { completeCreatedLink } from '../../creating/new-link';
import type { FormField } from '../../forms/form-fields';
import { NEW_LINK_FIELDS, readNewLink } from '../link-fields';
import { LINK_SAMPLE } from '../link-record';
import { linksPerRow, NEW_LINK_EXTRA_FIELDS, newLinkOutput, newLinkResult, readQrCodeWish } from './new-link-extras';
import { countRowWithLink, quotaGate } from './quota-run';
import type { Operation } from '../operation';

export const REUSE_INACTIVE_FIELD: FormField = {
  key: 'reuseInactive',
  label: 'Reuse Paused, Blocked or Expired Links',
  kind: 'boolean',
  group: 'options',
  default: false,
  help: 'Whether a link that no longer works (paused, blocked or expired) counts as found. Off: a new link is made beside it.',
};

/**
 * Find or Create: the link a URL already has, else a new one — safe to rerun. "The same link" is the
 * core's (link-index/same-link.ts): the target with the UTM fields applied, on the chosen domain (the
 * default domain when Domain is empty), and the slug when one is given. The client's findOrCreateLink walks
 * the account once per run (its link index), recovers a taken slug (409) and keeps the index up to date.
 */
export const findOrCreateLink: Operation = {
  key: 'link.findOrCreate',
  resource: 'link',
  action: 'findOrCreate',
  label: 'Find or Create',
  description:
    'Finds the short link a URL (with your UTM parameters) already has on that domain, and creates one only when there is none.',
  returns: 'Returns the link; Created says whether it is new.',
  safety: { readOnly: false, destructive: false, idempotent: true, repeat: 'reruns make no duplicates' },
  fields: [...NEW_LINK_FIELDS, REUSE_INACTIVE_FIELD, ...NEW_LINK_EXTRA_FIELDS],
  output: newLinkOutput([{ key: 'created', label: 'Created', type: 'boolean' }]),
  sample: { records: [{ ...LINK_SAMPLE, created: true }] },
  async run(client, form, context) {
    const input = readNewLink(form, context);
    const reuseInactive = form.flag('reuseInactive');
    const qr = readQrCodeWish(form);
    const notices: string[] = [];
    // Only a create takes one of the plan's links left; a link found takes none.
    const createGate = quotaGate(client, form, context, (notice) => notices.push(notice), linksPerRow(qr));
    const { link, created } = await client.findOrCreateLink(input, { reuseInactive, createGate });
    if (!created) await countRowWithLink(context);
    return newLinkResult(completeCreatedLink(link, input), { created }, qr, { client, form, context, notices, reuseInactive });
  },
};
