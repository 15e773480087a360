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
import { conditionHolds, exposureOf, isOffered, operationByKey } from '@shortlink/core';
import app from '../../../packages/zapier/src';
import { recordsFromZapier, type OutputShape } from '../../../packages/zapier/src/adapter/output';
import type { Fixture } from './fixtures';
import { messageOf, type Outcome } from './outcome';

export interface ZapierStep {
  /** 'creates.create_link', 'searches.find_links', or 'searchOrCreates.find_link' (search, then the create half when nothing is found). */
  method: string;
  shape: OutputShape;
  /** A search whose "nothing found" ([]) stands for the core's not-found error. */
  emptyIsNotFound?: boolean;
}

export function zapierStepFor(operationKey: string, values: Record<string, unknown>): ZapierStep | undefined {
  const operation = operationByKey(operationKey);
  const steps = exposureOf(operation).zapier;
  if (!isOffered(steps)) return undefined;
  // A fixed value the case's values (or the field's default) agree with; a step without fixed values takes any case.
  const agrees = (fixed: Record<string, unknown> = {}) =>
    Object.entries(fixed).every(([key, value]) => conditionHolds({ [key]: [value as string] }, values, operation.fields));
  const step = steps.find((candidate) => agrees(candidate.fixed));
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
      return { records: [(await invoke(`creates.${pair.create}.operation.perform`, bundle)) as Record<string, unknown>] };
    }
    const records = recordsFromZapier(await invoke(`${step.method}.operation.perform`, bundle), step.shape);
    if (step.emptyIsNotFound && records.length === 0) return { error: '', notFound: true };
    return { records };
  } catch (error) {
    return { error: messageOf(error), notFound: false };
  }
}

/** Through zapier-platform-core's createAppTester, in this process. */
export function runZapier(step: ZapierStep, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const appTester = createAppTester(app) as unknown as (perform: Perform, bundle: object) => Promise<unknown>;
  return zapierOutcome(step, zapierBundle(values, fixture, timeZone), (method, bundle) => appTester(performOf(method.replace(/\.operation\.perform$/, '')), bundle));
}
