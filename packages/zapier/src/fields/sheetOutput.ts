/**
 * Output fields and samples of Find or Create Many's two Zapier steps (Preview Campaign Sheet, Create Links
 * from Preview): the summary's totals as fields, each row's result as line items under `rowResults` (for
 * "Create Multiple Spreadsheet Rows" or a loop). The columns are the core's, the same in both steps.
 */
type OutputField = { key: string; label: string; type?: 'string' | 'integer' | 'boolean' | 'datetime' | 'number' };

/** The line items' key: `rows` is the summary's count of rows. */
export const ROW_RESULTS_KEY = 'rowResults';

const rowColumns: OutputField[] = [
  { key: 'row', label: 'Row', type: 'integer' },
  { key: 'status', label: 'Status', type: 'string' },
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'linkId', label: 'Link ID', type: 'string' },
  { key: 'sameAsRow', label: 'Duplicate of Row', type: 'integer' },
  { key: 'reason', label: 'Reason', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string' },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
];

const rowResultFields = rowColumns.map((field) => ({ ...field, key: `${ROW_RESULTS_KEY}[]${field.key}`, label: `${field.label} (Row Results)` }));

const sampleRows = (created: boolean) => [
  { row: 1, status: created ? 'created' : 'will create', shortUrl: created ? 'https://go.example.org/x7Kp2mQa9z' : '', linkId: created ? '1044' : '', sameAsRow: null, reason: '', targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale', domain: 'go.example.org', slug: '', title: 'Spring newsletter' },
  { row: 2, status: 'duplicate', shortUrl: created ? 'https://go.example.org/x7Kp2mQa9z' : '', linkId: created ? '1044' : '', sameAsRow: 1, reason: '', targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale', domain: 'go.example.org', slug: '', title: 'Spring newsletter' },
  { row: 3, status: 'already exists', shortUrl: 'https://go.example.org/spring-sale', linkId: '1042', sameAsRow: null, reason: '', targetUrl: 'https://example.org/spring-sale', domain: 'go.example.org', slug: 'spring-sale', title: 'Spring sale' },
];

export const previewSample = {
  mode: 'preview',
  rows: 3,
  willCreate: 1,
  alreadyExist: 1,
  duplicates: 1,
  willFail: 0,
  linksLeft: 480,
  reviewToken: 'slr1-3-mx0z8ktu-1.1.1.0-4765c76d072e89d6-fe451350c3fc1b10',
  message: 'Preview of 3 rows: 1 to create, 1 already there, 1 duplicate, 0 failing. Nothing was written. To create them, submit the same rows with this review token.',
  count: 3,
  [ROW_RESULTS_KEY]: sampleRows(false),
};

export const previewOutputFields: OutputField[] = [
  { key: 'reviewToken', label: 'Review Token', type: 'string' },
  { key: 'mode', label: 'Step', type: 'string' },
  { key: 'message', label: 'Message', type: 'string' },
  { key: 'rows', label: 'Rows', type: 'integer' },
  { key: 'willCreate', label: 'Will Create', type: 'integer' },
  { key: 'alreadyExist', label: 'Already Exist', type: 'integer' },
  { key: 'duplicates', label: 'Duplicates', type: 'integer' },
  { key: 'willFail', label: 'Will Fail', type: 'integer' },
  { key: 'linksLeft', label: 'Links Left in the Plan', type: 'integer' },
  { key: 'count', label: 'Number of Row Results', type: 'integer' },
  ...rowResultFields,
];

export const submitSample = {
  mode: 'submit',
  rows: 3,
  created: 1,
  alreadyExist: 1,
  duplicates: 1,
  failed: 0,
  notDone: 0,
  complete: true,
  message: 'Done: 1 created, 1 already there, 1 duplicate, 0 failed.',
  count: 3,
  [ROW_RESULTS_KEY]: sampleRows(true),
};

export const submitOutputFields: OutputField[] = [
  { key: 'message', label: 'Message', type: 'string' },
  { key: 'mode', label: 'Step', type: 'string' },
  { key: 'rows', label: 'Rows', type: 'integer' },
  { key: 'created', label: 'Created', type: 'integer' },
  { key: 'alreadyExist', label: 'Already Exist', type: 'integer' },
  { key: 'duplicates', label: 'Duplicates', type: 'integer' },
  { key: 'failed', label: 'Failed', type: 'integer' },
  { key: 'notDone', label: 'Not Done Yet', type: 'integer' },
  { key: 'complete', label: 'Complete', type: 'boolean' },
  { key: 'count', label: 'Number of Row Results', type: 'integer' },
  ...rowResultFields,
];
