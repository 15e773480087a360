import { completeCreatedLink } from '../../creating/new-link';
import { NEW_LINK_FIELDS, readNewLink } from '../link-fields';
import { LINK_SAMPLE } from '../link-record';
import { linksPerRow, NEW_LINK_EXTRA_FIELDS, newLinkOutput, newLinkResult, readQrCodeWish } from './new-link-extras';
import { quotaGate } from './quota-run';
import type { Operation } from '../operation';

/**
 * Create: a new short link on every run, even for a target that has one already (Find or Create reuses
 * it). The record is the complete twelve-field link (the creation answer has nine; completeCreatedLink adds
 * what the spec fixes), so Create shows what Get shows.
 */
export const createLink: Operation = {
  key: 'link.create',
  resource: 'link',
  action: 'create',
  label: 'Create',
  description: 'Shortens a URL, with your UTM parameters added.',
  returns: 'Returns the new short link.',
  safety: { readOnly: false, destructive: false, idempotent: false, repeat: 'every run makes another link (to reuse the link a URL already has, use {link.findOrCreate})' },
  fields: [...NEW_LINK_FIELDS, ...NEW_LINK_EXTRA_FIELDS],
  output: newLinkOutput(),
  sample: { records: [LINK_SAMPLE] },
  async run(client, form, context) {
    const input = readNewLink(form, context);
    const qr = readQrCodeWish(form);
    const notices: string[] = [];
    const gate = quotaGate(client, form, context, (notice) => notices.push(notice), linksPerRow(qr));
    await gate.before();
    let created;
    try {
      created = await client.createLink(input);
    } catch (error) {
      await gate.failed(error);
      throw error;
    }
    return newLinkResult(completeCreatedLink(created, input), {}, qr, { client, form, context, notices });
  },
};
