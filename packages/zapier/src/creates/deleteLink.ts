import { createStep } from '../adapter/step';

/** Delete Link: the core's link.delete (a link already gone is a success). */
export const deleteLink = createStep({
  key: 'delete_link',
  noun: 'Link',
  label: 'Delete Link',
  description:
    'Deletes a short link for good: its short URL stops working. Safe to repeat: a link that is already gone is reported as deleted, not as an error. Returns the short URL, ID, target URL and title of the deleted link.',
  operation: 'link.delete',
  output: { kind: 'object' },
  hostFields: [
    {
      key: 'deleteWarning',
      type: 'copy',
      helpText: '**This cannot be undone.** The short URL stops working at once, also where it is already printed or shared.',
    },
  ],
  sample: {
    shortUrl: 'https://go.example.org/spring-sale',
    id: '1042',
    targetUrl: 'https://example.org/spring-sale',
    title: 'Spring sale',
    deleted: true,
    alreadyDeleted: false,
  },
  outputFields: [
    { key: 'shortUrl', label: 'Short URL', type: 'string' },
    { key: 'id', label: 'Link ID', type: 'string' },
    { key: 'targetUrl', label: 'Target URL', type: 'string' },
    { key: 'title', label: 'Title', type: 'string' },
    { key: 'deleted', label: 'Deleted', type: 'boolean' },
    { key: 'alreadyDeleted', label: 'Was Already Deleted', type: 'boolean' },
  ],
});
