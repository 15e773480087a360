import { createStep } from '../adapter/step';
import { SAME_UTM_IN_BOTH_HALVES } from '../fields/findOrCreateTrap';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/**
 * The create half of Find or Create Link, hidden: it runs the core's link.findOrCreate, not a plain
 * create, so it gives the link n8n gives (the same "same link", the 409 recovery of a taken slug, the
 * connection's index kept up to date) even when the search half was given other values or a link was
 * made between the two halves.
 */
export const findOrCreateLink = createStep({
  key: 'find_or_create_link',
  noun: 'Link',
  label: 'Create Link If None Exists',
  description:
    'Creates a short link for a URL (with your UTM parameters) only when it has none on that domain yet; otherwise returns the existing one. Safe to repeat: reruns make no duplicates. Returns the link, and Created says whether it is new.',
  operation: 'link.findOrCreate',
  output: { kind: 'object' },
  inputOptions: { extraHelp: { utm: SAME_UTM_IN_BOTH_HALVES } },
  hidden: true,
  sample: { ...linkSample, created: true },
  outputFields: [...linkOutputFields, { key: 'created', label: 'Created', type: 'boolean' }],
});
