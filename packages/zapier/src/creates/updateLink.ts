import { createStep } from '../adapter/step';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Update Link: the core's link.update (only what the form sets). */
export const updateLink = createStep({
  key: 'update_link',
  noun: 'Link',
  label: 'Update Link',
  description:
    "Changes a short link's target URL (UTM parameters included), slug, title, expiry, password or whether it works; empty fields stay as they are. Safe to repeat with the same values. Returns the link as it is now.",
  operation: 'link.update',
  output: { kind: 'object' },
  sample: linkSample,
  outputFields: linkOutputFields,
});
