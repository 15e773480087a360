import { searchStep } from '../adapter/step';
import { SAME_UTM_IN_BOTH_HALVES } from '../fields/findOrCreateTrap';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/**
 * Find Link, also the search half of Find or Create Link: the core's link.find (the UTM-tagged target on
 * the chosen domain, or a slug), through the connection's stored index. Zapier takes the first match.
 */
export const findLink = searchStep({
  key: 'find_link',
  noun: 'Link',
  label: 'Find Link',
  description:
    'Finds the short link of a URL (with your UTM parameters) or of a slug on a domain, searching the whole account. Changes nothing, so it is safe to repeat. Returns the first matching link, or nothing when none matches.',
  operation: 'link.find',
  output: { kind: 'list' },
  // Zapier uses the first match; how many to return is Find Links' question.
  fixed: { limit: 10 },
  inputOptions: { extraHelp: { utm: SAME_UTM_IN_BOTH_HALVES }, linkSearch: false },
  sample: linkSample,
  outputFields: linkOutputFields,
});
