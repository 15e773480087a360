/**
 * What hosts read from their forms through the core: dates without a zone (read in the user's zone), an
 * expiry that must lie ahead, a slug explained in words, errors in the form's words, the twelve fields of
 * a new link and clicks for every day of a range.
 */
import fc from 'fast-check';
import { alwaysRequired, checkDay, checkSlug, completeCreatedLink, conditionText, ConflictError, dailyClicks, FormReader, InputError, inFormWords, isRequired, NotFoundError, readDateTime, readExpiry, ValidationError, type FormField } from '../src/portable';
import { instantOfWallTime, wallTimeIn } from '../src/forms/date-input';
import { MAX_FILLED_DAYS } from '../src/stats/daily-clicks';

function inputErrorOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('readDateTime: wall time without a zone is read in the given zone', () => {
  test.each([
    // n8n's date picker: 2026-12-31T00:00:00, midnight in the workflow's zone
    ['2026-12-31T00:00:00', 'Europe/Berlin', '2026-12-30T23:00:00.000Z'],
    ['2026-07-01T00:00:00', 'Europe/Berlin', '2026-06-30T22:00:00.000Z'],
    ['2026-12-31T00:00:00', 'America/New_York', '2026-12-31T05:00:00.000Z'],
    ['2026-12-31T00:00:00', 'UTC', '2026-12-31T00:00:00.000Z'],
    ['2026-12-31 09:30', 'Asia/Kolkata', '2026-12-31T04:00:00.000Z'],
    ['2026-12-31T09:30:15.250', 'Asia/Tokyo', '2026-12-31T00:30:15.250Z'],
    ['2026-12-31', 'Europe/Berlin', '2026-12-30T23:00:00.000Z'],
    // clocks jump 02:00 → 03:00 on 2026-03-29 in Berlin: 02:30 does not exist and becomes 03:30
    ['2026-03-29T02:30:00', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    // clocks go back 03:00 → 02:00 on 2026-10-25 in Berlin: 02:30 happens twice, the first one counts
    ['2026-10-25T02:30:00', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
  ])('%s in %s is %s', (value, timeZone, expected) => {
    expect(readDateTime(value, { field: 'expiresAt', timeZone })).toBe(expected);
  });

  test.each([
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
    ['2026-12-31T23:59:59+01:00', '2026-12-31T22:59:59.000Z'],
    ['2026-12-31T23:59:59.5-05:00', '2027-01-01T04:59:59.500Z'],
  ])('a value with a zone means what it says (%s), whatever the zone given', (value, expected) => {
    expect(readDateTime(value, { field: 'expiresAt', timeZone: 'Asia/Tokyo' })).toBe(expected);
  });

  test.each(['tomorrow', '31/12/2026', '2026-02-30T10:00:00', '2026-12-31T25:00:00', '2026-12-31T23:60', '', 'T'])('%j is refused, naming the field', (value) => {
    const error = inputErrorOf(() => readDateTime(value, { field: 'expiresAt', timeZone: 'Europe/Berlin' }));
    expect(error.field).toBe('expiresAt');
    expect(error.message).toMatch(/^expiresAt must be a date and time such as 2026-12-31T23:59:00 \(read in Europe\/Berlin\)/);
  });

  test('an unknown zone is refused for a value that needs one', () => {
    expect(inputErrorOf(() => readDateTime('2026-12-31T00:00:00', { field: 'expiresAt', timeZone: 'Mars/Olympus' })).message).toMatch(/unknown/);
    expect(readDateTime('2026-12-31T00:00:00Z', { field: 'expiresAt', timeZone: 'Mars/Olympus' })).toBe('2026-12-31T00:00:00.000Z');
  });

  test('property: the wall time a zone shows for an instant is read back as that instant (first occurrence)', () => {
    const zones = fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC', 'America/Santiago');
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }), zones, (instant, timeZone) => {
        const minute = instant - (instant % 60_000);
        const wall = wallTimeIn(minute, timeZone);
        const read = instantOfWallTime(Date.parse(`${wall.replace(' ', 'T')}:00Z`), timeZone);
        // Equal, or the same wall time an earlier hour (a time that happened twice): the clocks show it again.
        expect(wallTimeIn(read, timeZone)).toBe(wall);
        expect(read).toBeLessThanOrEqual(minute);
        expect(minute - read).toBeLessThanOrEqual(3_600_000);
      }),
      { numRuns: 500 },
    );
  });
});

describe('readExpiry: only an expiry ahead is accepted', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  test('a future wall time is read in the zone', () => {
    expect(readExpiry('2026-12-31T00:00:00', { field: 'expiresAt', timeZone: 'Europe/Berlin', now })).toBe('2026-12-30T23:00:00.000Z');
  });

  test.each(['2026-11-23T10:00:00Z', '2026-11-23T10:59:00', '2020-01-01T00:00:00', '2026-11-23'])('%s is refused as in the past, with the zone and the instant', (value) => {
    const error = inputErrorOf(() => readExpiry(value, { field: 'Expires At', timeZone: 'Europe/Berlin', now }));
    expect(error.field).toBe('Expires At');
    expect(error.message).toMatch(/^Expires At is in the past: \d{4}-\d\d-\d\d \d\d:\d\d in Europe\/Berlin \(.*Z\) was before now \(2026-11-23 11:00\)\. Pick a later date/);
  });
});

describe('checkSlug explains the rule instead of a pattern', () => {
  test.each(['spring-sale', 'A1_b-2', '7', 'x'.repeat(64)])('%s passes', (slug) => {
    expect(checkSlug(slug)).toBe(slug);
  });

  test.each([
    ['no spaces please', /a space is not allowed/],
    ['a/b', /"\/" is not allowed/],
    ['ümlaut', /"ü" is not allowed/],
    ['-leading', /must start with a letter or digit/],
    ['_x', /must start with a letter or digit/],
    ['x'.repeat(65), /at most 64 characters.*got 65/],
    ['tab\there', /a line break or tab is not allowed/],
  ])('%j is refused: %s', (slug, why) => {
    const error = inputErrorOf(() => checkSlug(slug, 'slug'));
    expect(error.field).toBe('slug');
    expect(error.message).toMatch(why);
    expect(error.message).toMatch(/^slug /);
    expect(error.message).not.toMatch(/\^|\$|\[A-Z/);
  });
});

describe('inFormWords', () => {
  const labels = { targetUrl: 'Target URL', slug: 'Slug', title: 'Title', url: 'Target URL' };

  test('an input error speaks the label', () => {
    const words = inFormWords(new InputError('targetUrl', 'targetUrl must be an absolute http(s) URL such as https://example.org/page; got "x".'), labels);
    expect(words).toEqual({ detail: 'Target URL must be an absolute http(s) URL such as https://example.org/page; got "x".', fields: ['Target URL'] });
    expect(inFormWords(new InputError('url', 'url is required: an absolute URL.'), labels).detail).toBe('Target URL is required: an absolute URL.');
  });

  test('a 422 quoting a pattern gets the rule and the labels, in the detail and per field', () => {
    const raw = 'slug must match pattern "^[A-Za-z0-9][A-Za-z0-9_-]*$".';
    const error = new ValidationError({
      title: 'Validation failed',
      message: `Validation failed: ${raw}`,
      status: 422,
      detail: `${raw} title must NOT have more than 200 characters.`,
      fieldErrors: [
        { field: 'slug', message: raw },
        { field: 'title', message: 'title must NOT have more than 200 characters.' },
      ],
    });
    const words = inFormWords(error, labels);
    expect(words.detail).toBe('Slug must be letters, digits, "-" and "_" only, starting with a letter or digit, at most 64 characters. Title must NOT have more than 200 characters.');
    expect(words.fields).toEqual(['Slug', 'Title']);
  });

  test('a 422 without detail is told from its field errors; an unknown pattern is not shown', () => {
    const error = new ValidationError({ title: 'Validation failed', message: 'x', status: 422, fieldErrors: [{ field: 'color', message: 'must match ^#[0-9a-f]{6}$' }] });
    expect(inFormWords(error, labels)).toEqual({ detail: 'color: is not in the form the service accepts', fields: ['color'] });
  });

  test('a 409 concerns the slug; other answers keep their detail and concern no field', () => {
    const conflict = new ConflictError({ title: 'Slug already taken', message: 'x', status: 409, detail: 'The slug spring-sale is already in use on the default domain.' });
    expect(inFormWords(conflict, labels)).toEqual({ detail: 'The slug spring-sale is already in use on the default domain.', fields: ['Slug'] });
    const missing = new NotFoundError({ title: 'Not found', message: 'Not found (404 Not Found).', status: 404 });
    expect(inFormWords(missing, labels)).toEqual({ detail: undefined, fields: [] });
  });
});

describe('completeCreatedLink: the twelve fields of Get after a creation', () => {
  const created = {
    id: '7',
    slug: 'abc',
    shortUrl: 'https://sho.rt/abc',
    targetUrl: 'https://example.org/',
    title: '',
    domain: null,
    active: true,
    clicks: 0,
    createdAt: '2026-03-01T09:30:00.000Z',
  };

  test('a plain new link: not blocked, no password, no expiry, in the order of Get', () => {
    const link = completeCreatedLink(created, { targetUrl: 'https://example.org/' });
    expect(Object.keys(link)).toEqual(['id', 'slug', 'shortUrl', 'targetUrl', 'title', 'domain', 'active', 'blocked', 'hasPassword', 'clicks', 'expiresAt', 'createdAt']);
    expect(link).toMatchObject({ blocked: false, hasPassword: false, expiresAt: null });
  });

  test('what was sent: a password and an expiry (as the service stores it)', () => {
    const link = completeCreatedLink(created, { targetUrl: 'https://example.org/', password: 'open sesame', expiresAt: '2027-01-01T00:00:00+01:00' });
    expect(link).toMatchObject({ hasPassword: true, expiresAt: '2026-12-31T23:00:00.000Z' });
  });

  test('a full link (found after a lost answer) is kept as it is', () => {
    const full = { ...created, blocked: false, hasPassword: true, expiresAt: null };
    expect(completeCreatedLink(full, { targetUrl: 'https://example.org/' })).toBe(full);
  });
});

describe('dailyClicks', () => {
  const now = Date.parse('2026-03-06T12:00:00Z');
  const rows = [
    { date: '2026-03-04', clicks: 2 },
    { date: '2026-03-01', clicks: 5 },
  ];

  test('without options: the days with clicks, ascending', () => {
    expect(dailyClicks(rows, { now })).toEqual([
      { date: '2026-03-01', clicks: 5 },
      { date: '2026-03-04', clicks: 2 },
    ]);
  });

  test('days without clicks: from the first day with clicks to today', () => {
    expect(dailyClicks(rows, { now, includeDaysWithoutClicks: true }).map((row) => `${row.date}=${row.clicks}`)).toEqual([
      '2026-03-01=5',
      '2026-03-02=0',
      '2026-03-03=0',
      '2026-03-04=2',
      '2026-03-05=0',
      '2026-03-06=0',
    ]);
  });

  test('a range: only its days; filled, every one of them (also before the first click)', () => {
    expect(dailyClicks(rows, { now, from: '2026-03-02', to: '2026-03-04' })).toEqual([{ date: '2026-03-04', clicks: 2 }]);
    expect(dailyClicks(rows, { now, from: '2026-02-27', to: '2026-03-02', includeDaysWithoutClicks: true })).toEqual([
      { date: '2026-02-27', clicks: 0 },
      { date: '2026-02-28', clicks: 0 },
      { date: '2026-03-01', clicks: 5 },
      { date: '2026-03-02', clicks: 0 },
    ]);
    // a date-time from a picker counts as its day
    expect(dailyClicks(rows, { now, from: '2026-03-04T00:00:00', includeDaysWithoutClicks: true }).map((row) => row.date)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06']);
  });

  test('a link without clicks: nothing without a first day, zeros with one', () => {
    expect(dailyClicks([], { now, includeDaysWithoutClicks: true })).toEqual([]);
    expect(dailyClicks([], { now, from: '2026-03-05', includeDaysWithoutClicks: true })).toEqual([
      { date: '2026-03-05', clicks: 0 },
      { date: '2026-03-06', clicks: 0 },
    ]);
  });

  test('bad ranges are refused with the fields named', () => {
    expect(inputErrorOf(() => dailyClicks(rows, { now, from: '2026-03-05', to: '2026-03-01', fromField: 'From', toField: 'To' })).message).toBe(
      'From (2026-03-05) must be on or before To (2026-03-01).',
    );
    expect(inputErrorOf(() => dailyClicks(rows, { now, from: 'March' })).field).toBe('from');
    expect(inputErrorOf(() => checkDay('2026-02-30', 'to')).message).toMatch(/must be a day such as 2026-03-01/);
    const tooLong = inputErrorOf(() => dailyClicks(rows, { now, from: '2000-01-01', includeDaysWithoutClicks: true }));
    expect(tooLong.message).toMatch(new RegExp(`at most ${MAX_FILLED_DAYS} days`));
  });
});

describe('show and required conditions (FormField.showWhen, requiredWhen)', () => {
  const fields: FormField[] = [
    { key: 'selectBy', label: 'Links', kind: 'choice', default: 'campaign', help: '', choices: [{ value: 'campaign', label: 'Of a Campaign' }, { value: 'all', label: 'All Links' }] },
    { key: 'campaign', label: 'Campaign', kind: 'text', required: true, showWhen: { selectBy: ['campaign'] }, help: '' },
    { key: 'limit', label: 'Limit', kind: 'number', default: 5, showWhen: { selectBy: ['all'] }, help: '' },
    { key: 'note', label: 'Note', kind: 'text', requiredWhen: { selectBy: ['all'] }, help: '' },
  ];

  test('a value left in a hidden field is not read (its default is)', () => {
    const reader = new FormReader({ selectBy: 'campaign', campaign: 'spring', limit: 99 }, fields);
    expect(reader.text('campaign')).toBe('spring');
    expect(reader.number('limit')).toBe(5);
    const all = new FormReader({ selectBy: 'all', campaign: 'spring', limit: 99 }, fields);
    expect(all.text('campaign')).toBeUndefined();
    expect(all.number('limit')).toBe(99);
  });

  test('a choice typed by its label, or left empty for its default, meets the condition', () => {
    expect(new FormReader({ selectBy: 'All Links', limit: 7 }, fields).number('limit')).toBe(7);
    expect(new FormReader({ campaign: 'spring' }, fields).text('campaign')).toBe('spring');
  });

  test('required: always, when shown, or when its condition holds; said in the form\'s words', () => {
    expect(fields.map((field) => [field.key, isRequired(field, { selectBy: 'campaign' }, fields)])).toEqual([['selectBy', false], ['campaign', true], ['limit', false], ['note', false]]);
    expect(fields.map((field) => [field.key, isRequired(field, { selectBy: 'all' }, fields)])).toEqual([['selectBy', false], ['campaign', false], ['limit', false], ['note', true]]);
    expect(fields.filter(alwaysRequired)).toEqual([]);
    expect(conditionText({ selectBy: ['campaign', 'all'] }, fields)).toBe('"Links" is "Of a Campaign" or "All Links"');
    expect(conditionText({ alsoQrCode: [true] }, [{ key: 'alsoQrCode', label: 'Also Make a QR Code', kind: 'boolean', help: '' }])).toBe('"Also Make a QR Code" is on');
  });
});
