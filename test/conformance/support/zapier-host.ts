/**
 * The Zapier app through zapier-platform-core's createAppTester, and the Zapier formatting step undone
 * (packages/zapier/src/adapter/output.ts). Which step runs an operation, and how its output gives the core's
 * records back, is read from the core's exposure table, the app's own source: the step whose fixed values
 * the case's values agree with (Find Daily Clicks for statistics per day, Find Links for a search without a
 * limit of 10). An operation the table does not offer on Zapier, or a case no step can take (statistics per
 * country), has no Zapier step.
 */
import { createAppTester } from 'zapier-platform-core';
import '../../support/zapier-local-dev';
import { conditionHolds, exposureOf, isOffered } from '@shortlink/core/host';
import { operationByKey, type FormField, type FormValues } from '@shortlink/core/operations';
import app from '../../../packages/zapier/src';
import { recordsFromZapier, type OutputShape } from '../../../packages/zapier/src/adapter/output';
import { fileBytes, type FilePointerData } from '../../../packages/zapier/src/adapter/files';
import type { Fixture } from './fixtures';
import { fileOutcome, messageOf, type FileOutcome, type Outcome, type Shown } from './outcome';

export interface ZapierStep {
  /** 'creates.create_link', 'searches.find_links', or 'searchOrCreates.find_link' (search, then the create half when nothing is found). */
  method: string;
  shape: OutputShape;
  /** A search whose "nothing found" ([]) stands for the core's not-found error. */
  emptyIsNotFound?: boolean;
}

/**
 * How a step's fixed values meet a case's values: 'exact' when the case's value (or the field's default)
 * is the fixed one, 'limit' when the case leaves a fixed field empty whose default differs (a host limit,
 * e.g. Zapier's 100 links a poll), 'conflict' when the case sets another value.
 */
export function agreement(fixed: FormValues = {}, values: Record<string, unknown>, fields: readonly FormField[]): 'exact' | 'limit' | 'conflict' {
  let result: 'exact' | 'limit' = 'exact';
  for (const [key, value] of Object.entries(fixed)) {
    if (conditionHolds({ [key]: [value as string] }, values, fields)) continue;
    if (values[key] !== undefined && values[key] !== '') return 'conflict';
    result = 'limit';
  }
  return result;
}

/** The step that takes the case: one whose fixed values the case agrees with, else one that only limits it. */
export function zapierStepFor(operationKey: string, values: Record<string, unknown>): ZapierStep | undefined {
  const operation = operationByKey(operationKey);
  const steps = exposureOf(operation).zapier;
  if (!isOffered(steps)) return undefined;
  const step = steps.find((candidate) => agreement(candidate.fixed, values, operation.fields) === 'exact') ?? steps.find((candidate) => agreement(candidate.fixed, values, operation.fields) === 'limit');
  if (!step) return undefined;
  const method = step.searchOrCreate ? `searchOrCreates.${step.searchOrCreate.key}` : `${step.kind === 'search' ? 'searches' : 'creates'}.${step.key}`;
  return { method, shape: step.output, ...(step.notFoundIsEmpty ? { emptyIsNotFound: true } : {}) };
}

type Perform = (z: unknown, bundle: unknown) => Promise<unknown>;

function performOf(path: string): Perform {
  const node = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], app) as { operation: { perform: Perform } };
  return node.operation.perform;
}

export function zapierBundle(values: Record<string, unknown>, fixture: Fixture, timeZone: string) {
  return { authData: { baseUrl: fixture.baseUrl, apiKey: fixture.apiKey }, inputData: { ...values }, meta: { timezone: timeZone } };
}

/** Calls one method of the app (tests: createAppTester; the zip: its Lambda handler) and gives its output. */
export type ZapierInvoke = (method: string, bundle: object) => Promise<unknown>;

/**
 * Runs the step as Zapier would and undoes Zapier's formatting step. Find or Create is Zapier's
 * searchOrCreate: the search half (find_link) with the same values, and only when it finds nothing the
 * create half (find_or_create_link). A hit of the search half is the core's record with created: false
 * (Zapier shows its own "search was found" flag beside it).
 */
export async function zapierOutcome(step: ZapierStep, bundle: object, invoke: ZapierInvoke): Promise<Outcome> {
  try {
    if (step.method.startsWith('searchOrCreates.')) {
      const pair = (app.searchOrCreates as Record<string, { search: string; create: string }>)[step.method.split('.')[1]!]!;
      const found = (await invoke(`searches.${pair.search}.operation.perform`, bundle)) as Array<Record<string, unknown>>;
      if (found.length > 0) return { records: [{ ...found[0], created: false }] };
      return shownByZapier(await invoke(`creates.${pair.create}.operation.perform`, bundle), { kind: 'object' });
    }
    const output = await invoke(`${step.method}.operation.perform`, bundle);
    const shown = shownByZapier(output, step.shape);
    if (step.emptyIsNotFound && shown.records.length === 0) return { error: '', notFound: true };
    return shown;
  } catch (error) {
    return { error: messageOf(error), notFound: false };
  }
}

/** A file pointer (z.dehydrateFile: `hydrate|||{…, bundle}|||hydrate`) as the file the hydrator would stash. */
function fileOf(pointer: unknown): FileOutcome | undefined {
  const match = typeof pointer === 'string' ? /^hydrate\|\|\|(.*)\|\|\|hydrate$/s.exec(pointer) : null;
  if (!match) return undefined;
  const data = (JSON.parse(match[1]!) as { bundle: FilePointerData }).bundle;
  return fileOutcome(data.mimeType, fileBytes(data));
}

/**
 * The Zapier formatting step undone (packages/zapier/src/adapter/output.ts): the records; a line-item step's
 * totals as the summary (the count and the file pointer left out); each `file` pointer as its file.
 */
export function shownByZapier(output: unknown, shape: OutputShape): Shown {
  const records = recordsFromZapier(output, shape);
  const files: FileOutcome[] = [];
  const take = (pointer: unknown) => {
    const file = fileOf(pointer);
    if (file) files.push(file);
  };
  if (shape.kind === 'object') take((output as Record<string, unknown>).file);
  for (const record of shape.kind === 'object' ? [] : records) take(record.file);
  const cleaned = records.map(({ file: _file, ...record }) => record);
  if (shape.kind !== 'lineItems' || records.length === 0) return { records: cleaned, files };
  const { count: _count, file, [shape.key]: _rows, ...summary } = (output as Array<Record<string, unknown>>)[0]!;
  take(file);
  return { records: cleaned, summary, files };
}

/** Through zapier-platform-core's createAppTester, in this process. */
export function runZapier(step: ZapierStep, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const appTester = createAppTester(app) as unknown as (perform: Perform, bundle: object) => Promise<unknown>;
  return zapierOutcome(step, zapierBundle(values, fixture, timeZone), (method, bundle) => appTester(performOf(method.replace(/\.operation\.perform$/, '')), bundle));
}
