/** The app definition itself: what Zapier shows users (labels, samples, output fields) and its shape. */
import { app } from './helpers';

type Field = { key: string; label?: string; type?: string };
type Operation = { key: string; noun: string; display: { label: string; description: string; hidden?: boolean }; operation: { sample?: Record<string, unknown>; outputFields?: Field[]; inputFields?: Field[] } };

const operations: Array<[string, Operation]> = [
  ...Object.values(app.triggers as Record<string, Operation>).map((op) => [`triggers.${op.key}`, op] as [string, Operation]),
  ...Object.values(app.creates as Record<string, Operation>).map((op) => [`creates.${op.key}`, op] as [string, Operation]),
  ...Object.values(app.searches as Record<string, Operation>).map((op) => [`searches.${op.key}`, op] as [string, Operation]),
];

/** Title Case: every word starts with a capital or a digit (ID, URL and UTM stay upper case). */
const TITLE_CASE = /^[A-Z0-9][A-Za-z0-9()]*( [A-Z0-9(][A-Za-z0-9()]*)*$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

it('has exactly the operations of the issues', () => {
  expect(operations.map(([path]) => path).sort()).toEqual(
    [
      'creates.create_link',
      'creates.delete_link',
      'creates.update_link',
      'searches.find_link',
      'searches.link_stats',
      'triggers.domain_list',
      'triggers.link_clicks',
      'triggers.new_link',
    ].sort(),
  );
  expect(app.searchOrCreates).toEqual({
    find_link: expect.objectContaining({ key: 'find_link', search: 'find_link', create: 'create_link' }),
  });
  expect((app.triggers as Record<string, Operation>).domain_list!.display.hidden).toBe(true);
});

describe.each(operations)('%s', (_path, op) => {
  it('has a sample with an id and output fields in Title Case for every sample field', () => {
    const { sample, outputFields } = op.operation;
    expect(sample).toBeDefined();
    expect(typeof sample!.id).toBe('string');
    expect(outputFields!.length).toBeGreaterThan(0);
    for (const field of outputFields!) expect(field.label).toMatch(TITLE_CASE);
    const declared = new Set(outputFields!.map((field) => field.key.split('[]')[0]));
    for (const key of Object.keys(sample!)) expect(declared).toContain(key);
  });

  it('shows dates as ISO 8601 timestamps in the sample', () => {
    const { sample, outputFields } = op.operation;
    for (const field of outputFields!.filter((f) => f.type === 'datetime')) {
      const value = sample![field.key];
      if (value !== null) expect(value).toMatch(ISO_TIMESTAMP);
    }
  });

  it('labels its input fields in Title Case', () => {
    // A copy field (a warning box) has no label.
    for (const field of op.operation.inputFields ?? []) if ((field as { type?: string }).type !== 'copy') expect(field.label).toMatch(TITLE_CASE);
  });
});
