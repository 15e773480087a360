import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { clientFor } from '../client';
import { linkIdField, resolveLinkId } from '../fields/linkIdInput';

/** The API answers a deletion with no body, so the step reports what it deleted for later steps. */
async function perform(z: ZObject, bundle: Bundle) {
  const id = await resolveLinkId(z, bundle);
  await clientFor(z, bundle).deleteLink(id);
  return { id, deleted: true };
}

export const deleteLink = defineCreate({
  key: 'delete_link',
  noun: 'Link',
  display: {
    label: 'Delete Link',
    description: 'Deletes a link for good; its short URL stops redirecting.',
  },
  operation: {
    perform,
    inputFields: [linkIdField],
    sample: { id: '1042', deleted: true },
    outputFields: [
      { key: 'id', label: 'ID', type: 'string' },
      { key: 'deleted', label: 'Deleted', type: 'boolean' },
    ],
  },
});
