import { createStep } from '../adapter/step';
import { ROW_RESULTS_KEY, submitOutputFields, submitSample } from '../fields/sheetOutput';

/**
 * Create Links from Preview: the core's link.findOrCreateMany in its Submit step. The same line items and
 * the preview's review token; refuses rows or an account that changed, creates exactly what was previewed.
 * What does not fit in a step's time goes on when Zapier runs the step again (same token, nothing twice).
 */
export const createFromPreview = createStep({
  key: 'create_from_preview',
  noun: 'Campaign Sheet',
  label: 'Create Links from Preview',
  description:
    'Creates the short links a Preview Campaign Sheet step said it would, for the same line items and its review token, and refuses in words when the rows or the account changed since. Safe to repeat: links already made are not made again. Returns each row\'s result as line items with the totals.',
  operation: 'link.findOrCreateMany',
  fixed: { mode: 'submit' },
  output: { kind: 'lineItems', key: ROW_RESULTS_KEY, as: 'object' },
  sample: submitSample,
  outputFields: submitOutputFields,
});
