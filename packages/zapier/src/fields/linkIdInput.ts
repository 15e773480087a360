/** The Link input shared by the operations on one link: a dropdown of the links, or a mapped id. */
export const linkIdField = {
  key: 'id',
  label: 'Link',
  type: 'string' as const,
  required: true,
  dynamic: 'link_list.id.shortUrl',
  helpText: 'The link to use: pick it, or map a link ID from an earlier step.',
};
