/**
 * One Zapier create or search over one core operation: the step file says which operation, its words and
 * its output shape; this file does the rest the same way for every step:
 * bundle.inputData → FormValues (the same keys as the core's fields) → runOperation → forZapier.
 * Link steps share the connection's stored link index (linkIndex.ts), so lookups by target, slug or short
 * URL, Find or Create and the index upkeep after a create are the core's, as on n8n.
 */
import { defineCreate, defineSearch, type Bundle, type ZObject } from 'zapier-platform-core';
import { NotFoundError, operationByKey, runOperation, singleRowFields, type FormValues, type Operation, type OperationResult } from '@shortlink/core/portable';
import { clientFor, type ShortLinkClient } from '../client';
import { withLinkIndex } from '../linkIndex';
import { inputFieldsFor, type InputFieldOptions } from './input-fields';
import { forZapier, type OutputShape } from './output';
import { STEP_TIME_BUDGET_MS } from '../stepBudget';
import { connectionRunCache } from './run-cache';

type OutputField = { key: string; label: string; type?: 'string' | 'integer' | 'boolean' | 'datetime' | 'number' };

export interface StepSpec {
  key: string;
  noun: string;
  label: string;
  /** What it changes, whether repeating it is safe, and what it returns (REVIEW.md, "Descriptions"). */
  description: string;
  /** The core operation's key, e.g. `link.create`. */
  operation: string;
  output: OutputShape;
  /** Values the step fixes; their fields are not shown. */
  fixed?: FormValues;
  inputOptions?: InputFieldOptions;
  /** Zapier-only fields shown before the generated ones (a copy box that warns). */
  hostFields?: object[];
  /** A search: an unknown link is the empty answer "nothing found", not an error. */
  notFoundIsEmpty?: boolean;
  /** Only for Find or Create's create half: not listed on its own. */
  hidden?: boolean;
  sample: object;
  outputFields: OutputField[];
}

/** bundle.inputData as the core's form values: only the operation's fields, then the step's fixed values. */
export function formValuesOf(operation: Operation, bundle: Bundle, fixed: FormValues = {}): FormValues {
  const input = bundle.inputData ?? {};
  const values: Record<string, unknown> = {};
  for (const field of operation.fields) if (field.key in input) values[field.key] = input[field.key];
  return { ...values, ...fixed };
}

/** The team's UTM presets, kept in the connection (authentication.ts): every Zap on the account tags alike. */
function utmPresetsOf(bundle: Bundle): { utmPresets?: string } {
  const text = (bundle.authData as { utmPresets?: unknown } | undefined)?.utmPresets;
  return typeof text === 'string' && text.trim() !== '' ? { utmPresets: text } : {};
}

function timeZoneOf(bundle: Bundle): string {
  return (bundle.meta as { timezone?: string | null } | undefined)?.timezone || 'UTC';
}

/** Link operations share the connection's index; the others need no lookup and no cache read. */
function withClient<T>(z: ZObject, bundle: Bundle, operation: Operation, use: (client: ShortLinkClient) => Promise<T>): Promise<T> {
  return operation.resource === 'link' || operation.resource === 'stats' ? withLinkIndex(z, bundle, use) : use(clientFor(z, bundle));
}

export function performFor(spec: Pick<StepSpec, 'operation' | 'output' | 'fixed' | 'notFoundIsEmpty'>) {
  const operation = operationByKey(spec.operation);
  return async (z: ZObject, bundle: Bundle): Promise<unknown> => {
    const values = formValuesOf(operation, bundle, spec.fixed);
    let result: OperationResult;
    try {
      // The step's time limit: an operation whose requests cannot fit refuses before sending them (Campaign
      // Report). A step is a run of one row; the connection's cache carries e.g. a quota refusal to the next.
      const context = { timeZone: timeZoneOf(bundle), timeLimitMs: STEP_TIME_BUDGET_MS, runSize: 1, cache: connectionRunCache(z, bundle), ...utmPresetsOf(bundle) };
      result = await withClient(z, bundle, operation, (client) => runOperation(operation, client, values, context));
    } catch (error) {
      if (spec.notFoundIsEmpty && error instanceof NotFoundError) return [];
      throw error;
    }
    return forZapier(z, result, spec.output);
  };
}

function definition(spec: StepSpec) {
  const operation = operationByKey(spec.operation);
  // A step is a run of one row: choices that matter only for many rows at once are left out.
  const shown = singleRowFields(operation.fields).filter((field) => !(spec.fixed && field.key in spec.fixed));
  return {
    key: spec.key,
    noun: spec.noun,
    display: { label: spec.label, description: spec.description, ...(spec.hidden ? { hidden: true } : {}) },
    operation: {
      perform: performFor(spec),
      inputFields: [...(spec.hostFields ?? []), ...inputFieldsFor(shown, spec.inputOptions)],
      sample: spec.sample,
      outputFields: spec.outputFields,
    },
  };
}

export function createStep(spec: StepSpec) {
  return defineCreate(definition(spec) as Parameters<typeof defineCreate>[0]);
}

export function searchStep(spec: StepSpec) {
  return defineSearch(definition(spec) as Parameters<typeof defineSearch>[0]);
}
