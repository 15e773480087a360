import { searchStep } from '../adapter/step';
import { previewOutputFields, previewSample, ROW_RESULTS_KEY } from '../fields/sheetOutput';

/**
 * Preview Campaign Sheet: the core's link.findOrCreateMany in its Preview step, over a line-item list
 * (a sheet's rows mapped to the columns). Writes nothing; its review token goes to Create Links from Preview.
 */
export const previewSheet = searchStep({
  key: 'preview_sheet',
  noun: 'Campaign Sheet',
  label: 'Preview Campaign Sheet',
  description:
    'Checks a line-item list of campaign URLs (e.g. a sheet\'s rows) against your account before anything is written: per row whether its short link will be created, already exists (with the link) or would fail and why, with totals and a review token for Create Links from Preview. Changes nothing, so it is safe to repeat.',
  operation: 'link.findOrCreateMany',
  fixed: { mode: 'preview', reviewToken: '' },
  output: { kind: 'lineItems', key: ROW_RESULTS_KEY },
  sample: previewSample,
  outputFields: previewOutputFields,
});
