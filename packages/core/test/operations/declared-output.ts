/**
 * The check that a result is what its operation's output says (operations/output.ts): every record has the
 * declared fields for the form's values, of the declared types, and nothing else; the count, the summary
 * and the file agree. Every run of the operation tests goes through it (sandbox-run.ts), and so does the
 * conformance table.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { conditionHolds, outputFieldsFor, recordSchemaOf, type FormField, type FormValues, type OperationResult, type OutputField } from '@shortlink/core';

const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
addFormats(ajv);

/** The fields a run with these values gives, each required (its condition holds). */
function fieldsFor(fields: readonly OutputField[], values: FormValues, form: readonly FormField[]): OutputField[] {
  return outputFieldsFor(fields, values, form).map(({ when: _when, ...field }) => field);
}

function check(what: string, schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`${what} is not what the output declares: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}

export interface Declared {
  key: string;
  fields: readonly FormField[];
  output: { count?: 'one' | 'many'; fields: readonly OutputField[]; summary?: readonly OutputField[]; file?: { per: 'record' | 'result'; when?: Record<string, readonly (string | number | boolean)[]>; mimeTypes: readonly string[] } };
}

export function expectDeclaredOutput(declared: Declared, values: FormValues, result: Pick<OperationResult, 'records' | 'summary' | 'files'>): void {
  const { output, fields: form } = declared;
  const schema = recordSchemaOf(fieldsFor(output.fields, values, form));
  result.records.forEach((record, index) => check(`${declared.key}: record ${index}`, schema, record));
  if (output.count === 'one' && result.records.length !== 1) throw new Error(`${declared.key} declares one record, gave ${result.records.length}`);
  if (result.summary !== undefined) {
    if (!output.summary) throw new Error(`${declared.key} gave a summary but declares none`);
    check(`${declared.key}: summary`, recordSchemaOf(fieldsFor(output.summary, values, form)), result.summary);
  }
  const files = result.files ?? [];
  const fileWanted = output.file !== undefined && conditionHolds(output.file.when, values, form);
  if (files.length > 0 && !fileWanted) throw new Error(`${declared.key} gave a file its output does not declare for these values`);
  for (const file of files) {
    if (!output.file!.mimeTypes.includes(file.mimeType)) throw new Error(`${declared.key}: file type ${file.mimeType} is not declared`);
    if ((file.recordIndex === undefined) !== (output.file!.per === 'result')) throw new Error(`${declared.key}: a file per ${output.file!.per} is declared`);
  }
}
