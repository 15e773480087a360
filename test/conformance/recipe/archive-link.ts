/**
 * A throwaway operation written the way docs/architecture.md ("How to add an operation") says, for the
 * recipe test: the module a developer would put at packages/core/src/operations/links/archive-link.ts.
 * Archive pauses a link (its short URL stops redirecting; nothing is deleted).
 */
import { LINK_FIELD, readLinkId } from '../../../packages/core/src/operations/common-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../../../packages/core/src/operations/link-record';
import type { Operation } from '../../../packages/core/src/operations/operation';

export const archiveLink: Operation = {
  key: 'link.archive',
  resource: 'link',
  action: 'archive',
  label: 'Archive',
  description: 'Pauses a short link so that its short URL stops working, without deleting it.',
  returns: 'Returns the link as it is now.',
  safety: { readOnly: false, destructive: true, idempotent: true, repeat: 'a link already paused stays paused' },
  fields: [{ ...LINK_FIELD, help: 'The short link to archive: its ID (e.g. 1042) or its full short URL.' }],
  output: { count: 'one', fields: LINK_OUTPUT_FIELDS },
  sample: { records: [{ ...LINK_SAMPLE, active: false }] },
  async run(client, form) {
    const id = await readLinkId(client, form);
    return { records: [linkRecord(await client.updateLink(id, { active: false }))] };
  },
};
