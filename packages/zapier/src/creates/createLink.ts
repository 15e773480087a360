import { createStep } from '../adapter/step';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Create Link: the core's link.create (a new link on every run). */
export const createLink = createStep({
  key: 'create_link',
  noun: 'Link',
  label: 'Create Link',
  description:
    'Creates a new short link for a URL, with your UTM parameters added. Not safe to repeat: every run makes another link (to reuse the link a URL already has, use Find or Create Link). Returns the new link with its short URL.',
  operation: 'link.create',
  output: { kind: 'object' },
  sample: linkSample,
  outputFields: linkOutputFields,
});
