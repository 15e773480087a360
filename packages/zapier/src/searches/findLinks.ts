import { searchStep } from '../adapter/step';
import { linkLineItemFields, linkSample } from '../fields/linkOutput';

/** Find Links: the core's link.find, every match as line items, for "Looping by Zapier" or a sheet. */
export const findLinks = searchStep({
  key: 'find_links',
  noun: 'Links',
  label: 'Find Links',
  description:
    'Finds all short links of a URL (with your UTM parameters) or of a slug on a domain, searching the whole account. Changes nothing, so it is safe to repeat. Returns the links as line items, to loop over, with their count.',
  operation: 'link.find',
  output: { kind: 'lineItems', key: 'links' },
  sample: { count: 1, links: [linkSample] },
  outputFields: [{ key: 'count', label: 'Number of Links Found', type: 'integer' }, ...linkLineItemFields('links', 'Links')],
});
