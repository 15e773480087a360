/**
 * What every operation and trigger declares beside its form: output fields, a sample, show and required
 * conditions. The declarations are what hosts generate from (Zapier's outputFields and samples, MCP's
 * outputSchema, n8n's displayOptions), so a sample that its own fields reject, or a condition on a field or
 * a choice that does not exist, would reach users.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ONE_PAGE_FORMS, OPERATIONS, outputFieldsFor, recordSchemaOf, TRIGGERS, type FieldCondition, type FormField, type OutputField } from '@shortlink/core';

const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
addFormats(ajv);

function expectValid(schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  const valid = validate(value);
  expect({ valid, errors: ajv.errorsText(validate.errors) }).toEqual({ valid: true, errors: 'No errors' });
}

/** A condition names fields of the same form, and for a choice only its values; for a switch only true or false. */
function expectMeaningful(condition: FieldCondition | undefined, form: readonly FormField[]): void {
  for (const [key, allowed] of Object.entries(condition ?? {})) {
    const field = form.find((candidate) => candidate.key === key);
    expect({ key, exists: field !== undefined }).toEqual({ key, exists: true });
    for (const value of allowed) {
      if (field!.kind === 'choice') expect(field!.choices!.map((choice) => choice.value)).toContain(value);
      else if (field!.kind === 'boolean') expect(typeof value).toBe('boolean');
    }
  }
}

function expectWellLabelled(fields: readonly OutputField[]): void {
  for (const field of fields) {
    expect(field.label.trim()).not.toBe('');
    if (field.type === 'list' || field.type === 'object') expect(field.fields?.length).toBeGreaterThan(0);
    if (field.fields) expectWellLabelled(field.fields);
  }
}

const operations = [...OPERATIONS, ...Object.values(ONE_PAGE_FORMS)];

describe.each(operations.map((operation) => [operation.key, operation] as const))('operation %s', (_key, operation) => {
  test('its sample is what its output fields declare', () => {
    expectWellLabelled(operation.output.fields);
    const union = recordSchemaOf(outputFieldsFor(operation.output.fields));
    expect(operation.sample.records.length).toBeGreaterThan(0);
    if (operation.output.count === 'one') expect(operation.sample.records).toHaveLength(1);
    for (const record of operation.sample.records) expectValid(union, record);
    if (operation.sample.summary) expectValid(recordSchemaOf(outputFieldsFor(operation.output.summary ?? [])), operation.sample.summary);
  });

  test('its conditions name fields and choices of its form', () => {
    for (const field of operation.fields) {
      expectMeaningful(field.showWhen, operation.fields);
      expectMeaningful(field.requiredWhen, operation.fields);
      expect(field.showWhen?.[field.key]).toBeUndefined();
    }
    for (const field of [...operation.output.fields, ...(operation.output.summary ?? [])]) expectMeaningful(field.when, operation.fields);
    expectMeaningful(operation.output.file?.when, operation.fields);
  });
});

describe.each(TRIGGERS.map((trigger) => [trigger.key, trigger] as const))('trigger %s', (_key, trigger) => {
  test('its sample is what its output fields declare, and its conditions name its fields', () => {
    expectWellLabelled(trigger.output);
    expectValid(recordSchemaOf(outputFieldsFor(trigger.output)), trigger.sample);
    for (const field of trigger.fields) {
      expectMeaningful(field.showWhen, trigger.fields);
      expectMeaningful(field.requiredWhen, trigger.fields);
    }
    for (const field of trigger.output) expectMeaningful(field.when, trigger.fields);
  });
});

test('a record with a field its output does not declare, or without one it always has, is refused', () => {
  const [create] = OPERATIONS;
  const schema = recordSchemaOf(outputFieldsFor(create!.output.fields));
  expect(ajv.validate(schema, { ...create!.sample.records[0], surprise: 1 })).toBe(false);
  const { shortUrl: _shortUrl, ...withoutShortUrl } = create!.sample.records[0]!;
  expect(ajv.validate(schema, withoutShortUrl)).toBe(false);
});
