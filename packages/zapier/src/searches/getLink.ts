import { searchStep } from '../adapter/step';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Find Link by ID or Short URL: the core's link.get; an unknown link is "nothing found". */
export const getLink = searchStep({
  key: 'get_link',
  noun: 'Link',
  label: 'Find Link by ID or Short URL',
  description:
    'Finds one short link by its ID or its short URL, with its total clicks. Changes nothing, so it is safe to repeat. Returns the link, or nothing when the account has no such link.',
  operation: 'link.get',
  output: { kind: 'list' },
  notFoundIsEmpty: true,
  sample: linkSample,
  outputFields: linkOutputFields,
});
