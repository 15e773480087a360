/** The JSON Schema of every operation's form: valid, from the fields' words, and agreeing with FormReader. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FormReader, ONE_PAGE_FORMS, OPERATIONS, type FormField } from '@shortlink/core/operations';
import { inputSchemaOf } from '@shortlink/core/host';

const ajv = new Ajv2020({ strict: true, strictTypes: false });
addFormats(ajv);

describe.each([...OPERATIONS, ...Object.values(ONE_PAGE_FORMS)].map((operation) => [operation.key, operation] as const))('%s', (_key, operation) => {
  const schema = inputSchemaOf(operation.fields);

  test('is a valid schema with one titled property per field and nothing else accepted', () => {
    expect(() => ajv.compile(schema)).not.toThrow();
    expect(schema.additionalProperties).toBe(false);
    for (const field of operation.fields) {
      expect(schema.properties[field.key]).toMatchObject({ title: field.label });
      expect(schema.properties[field.key]!.description!.startsWith(field.agentHelp ?? field.help)).toBe(true);
    }
  });

  test('every default it states is a value the schema accepts and FormReader reads without complaint', () => {
    const validate = ajv.compile(schema);
    const defaults: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties)) if (property.default !== undefined) defaults[key] = property.default;
    // A required value of each kind: a link's id, a table's one row, else a URL (every other required field is one).
    const kindOf = (key: string) => operation.fields.find((field) => field.key === key)?.kind;
    const required = Object.fromEntries((schema.required ?? []).map((key) => [key, key === 'link' ? '1' : kindOf(key) === 'rows' ? [{ targetUrl: 'https://example.org' }] : 'https://example.org']));
    expect(validate({ ...required, ...defaults })).toBe(true);
    const reader = new FormReader({ ...required, ...defaults }, operation.fields);
    for (const field of operation.fields) {
      if (field.kind === 'number') expect(reader.number(field.key)).toBe(field.default ?? undefined);
      if (field.kind === 'boolean') expect(typeof reader.flag(field.key)).toBe('boolean');
      if (field.kind === 'choice') expect(reader.choice(field.key)).toBe(field.default);
    }
  });
});

test('kinds map to JSON types, bounds and choices', () => {
  const fields: FormField[] = [
    { key: 'n', label: 'Count', kind: 'number', min: 1, max: 5, help: 'A count.', required: true },
    { key: 'c', label: 'Mode', kind: 'choice', help: 'Pick.', choices: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta', help: 'the second' }] },
    { key: 'm', label: 'Milestones', kind: 'list', listOf: 'number', default: '100, 1000', help: 'Numbers.' },
    { key: 'd', label: 'Day', kind: 'date', help: 'A day.' },
    { key: 'u', label: 'Target URL', kind: 'url', help: 'A page.', placeholder: 'e.g. https://example.org' },
  ];
  const schema = inputSchemaOf(fields);
  expect(schema.required).toEqual(['n']);
  expect(schema.properties.n).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
  expect(schema.properties.c).toMatchObject({ type: 'string', enum: ['a', 'b'], description: 'Pick. Values: "a" = Alpha; "b" = Beta (the second).' });
  expect(schema.properties.m).toMatchObject({ type: 'array', items: { type: 'integer' }, default: [100, 1000] });
  expect(schema.properties.d).toMatchObject({ type: 'string', format: 'date' });
  expect(schema.properties.u).toMatchObject({ type: 'string', examples: ['https://example.org'] });
  expect(ajv.compile(schema)({ n: 6 })).toBe(false);
});
