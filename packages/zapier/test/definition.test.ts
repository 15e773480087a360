/** The app definition itself: what Zapier shows users (labels, samples, output fields) and its shape. */
import { exposureOf, isOffered, triggerExposureOf } from '@shortlink/core/host';
import { OPERATIONS, TRIGGERS } from '@shortlink/core/operations';
import { app } from './helpers';

type Field = { key: string; label?: string; type?: string };
type Operation = { key: string; noun: string; display: { label: string; description: string; hidden?: boolean }; operation: { sample?: Record<string, unknown>; outputFields?: Field[]; inputFields?: Field[] } };

const operations: Array<[string, Operation]> = [
  ...Object.values(app.triggers as Record<string, Operation>).map((op) => [`triggers.${op.key}`, op] as [string, Operation]),
  ...Object.values(app.creates as Record<string, Operation>).map((op) => [`creates.${op.key}`, op] as [string, Operation]),
  ...Object.values(app.searches as Record<string, Operation>).map((op) => [`searches.${op.key}`, op] as [string, Operation]),
];

/**
 * Title Case as Zapier's style guide writes it: every word starts with a capital or a digit (ID, URL and
 * UTM stay upper case), except the short words it keeps lower case (or, and, of, on, per, by, …).
 */
const MINOR = '(?:a|an|and|or|of|on|in|to|by|per|for|the|with)';
const WORD = `(?:[A-Z0-9(][A-Za-z0-9()]*,?|${MINOR})`;
const TITLE_CASE = new RegExp(`^[A-Z0-9][A-Za-z0-9()]*,?( ${WORD})*$`);
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What the core's exposure table offers on Zapier: every step and trigger, and the hidden domain list. */
function offered(): string[] {
  const steps = OPERATIONS.flatMap((operation) => {
    const zapier = exposureOf(operation).zapier;
    return isOffered(zapier) ? zapier.map((step) => `${step.kind === 'search' ? 'searches' : 'creates'}.${step.key}`) : [];
  });
  const triggers = TRIGGERS.flatMap((trigger) => {
    const zapier = triggerExposureOf(trigger).zapier;
    return isOffered(zapier) ? [`triggers.${zapier.key}`] : [];
  });
  return [...steps, ...triggers, 'triggers.domain_list'].sort();
}

it('has exactly the steps the exposure table offers on Zapier, and the search-or-create pairs it names', () => {
  expect(operations.map(([path]) => path).sort()).toEqual(offered());
  // The steps users know by name stay (renaming one breaks their Zaps).
  expect(offered()).toEqual(expect.arrayContaining(['creates.create_link', 'creates.update_link', 'creates.delete_link', 'creates.find_or_create_link', 'creates.make_qr_code', 'creates.create_from_preview', 'searches.find_link', 'searches.find_links', 'searches.get_link', 'searches.link_stats', 'searches.daily_clicks', 'searches.campaign_report', 'searches.preview_sheet', 'triggers.new_link', 'triggers.link_clicks', 'triggers.clicks_per_day']));
  expect(app.searchOrCreates).toEqual({
    find_link: expect.objectContaining({ key: 'find_link', search: 'find_link', create: 'find_or_create_link' }),
  });
  expect((app.triggers as Record<string, Operation>).domain_list!.display.hidden).toBe(true);
  // The create half of Find or Create is not an action of its own.
  expect((app.creates as Record<string, Operation>).find_or_create_link!.display.hidden).toBe(true);
});

describe.each(operations)('%s', (_path, op) => {
  it('has a sample (with an id where it is one object of the account) and output fields in Title Case for every sample field', () => {
    const { sample, outputFields } = op.operation;
    expect(sample).toBeDefined();
    // Line-item results (Find Links, Daily Clicks) and statistics are no object of the account with an id of its own.
    if (!('count' in sample!) && !('linkId' in sample!)) expect(typeof sample!.id).toBe('string');
    expect(outputFields!.length).toBeGreaterThan(0);
    for (const field of outputFields!) expect(field.label).toMatch(TITLE_CASE);
    const declared = new Set(outputFields!.map((field) => field.key.split('[]')[0]));
    for (const key of Object.keys(sample!)) expect(declared).toContain(key);
  });

  it('shows dates as ISO 8601 timestamps in the sample', () => {
    const { sample, outputFields } = op.operation;
    for (const field of outputFields!.filter((f) => f.type === 'datetime')) {
      // A line item's key `list[]field` names the field of each entry.
      const [list, key] = field.key.includes('[]') ? field.key.split('[]') : [undefined, field.key];
      const entries = list === undefined ? [sample!] : (sample![list] as Array<Record<string, unknown>>);
      for (const value of entries.map((entry) => entry[key!]))
        if (value !== null) expect(value).toMatch(ISO_TIMESTAMP);
    }
  });

  it('never shows a bare URL in a help text (Zapier: Markdown links or backticks)', () => {
    for (const field of op.operation.inputFields ?? []) {
      const help = String((field as { helpText?: string }).helpText ?? '').replace(/`[^`]*`/g, '').replace(/\]\([^)]*\)/g, ']');
      expect(help).not.toMatch(/https?:\/\//);
    }
  });

  it('labels its input fields in Title Case', () => {
    // A copy field (a warning box) has no label.
    for (const field of op.operation.inputFields ?? []) if ((field as { type?: string }).type !== 'copy') expect(field.label).toMatch(TITLE_CASE);
  });
});
