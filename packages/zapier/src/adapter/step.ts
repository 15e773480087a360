/**
 * One Zapier create or search over one core operation: the step file says which operation, its words and
 * its output shape; this file does the rest the same way for every step:
 * bundle.inputData → FormValues (the same keys as the core's fields) → runOperation → forZapier.
 * Link steps share the connection's stored link index (linkIndex.ts), so lookups by target, slug or short
 * URL, Find or Create and the index upkeep after a create are the core's, as on n8n.
 */
import { defineCreate, defineSearch, type Bundle, type ZObject } from 'zapier-platform-core';
import { conditionHolds, singleRowFields, zapierDescription, type ZapierStep } from '@shortlink/core/host';
import { NotFoundError } from '@shortlink/core/portable';
import { OPERATIONS, runOperation, type FormField, type FormValues, type Operation, type OperationResult } from '@shortlink/core/operations';
import { clientFor, type ShortLinkClient } from '../client';
import { withLinkIndex } from '../linkIndex';
import { inputFieldsFor } from './input-fields';
import { forZapier } from './output';
import { zapierOutputFields, zapierSample } from './output-fields';
import { STEP_TIME_BUDGET_MS } from '../stepBudget';
import { connectionRunCache } from './run-cache';

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

export function performFor(operation: Operation, step: Pick<ZapierStep, 'output' | 'fixed' | 'notFoundIsEmpty'>) {
  return async (z: ZObject, bundle: Bundle): Promise<unknown> => {
    const values = formValuesOf(operation, bundle, step.fixed);
    let result: OperationResult;
    try {
      // The step's time limit: an operation whose requests cannot fit refuses before sending them (Campaign
      // Report). A step is a run of one row; the connection's cache carries e.g. a quota refusal to the next.
      const context = { timeZone: timeZoneOf(bundle), timeLimitMs: STEP_TIME_BUDGET_MS, runSize: 1, cache: connectionRunCache(z, bundle), ...utmPresetsOf(bundle) };
      result = await withClient(z, bundle, operation, (client) => runOperation(operation, client, values, context));
    } catch (error) {
      if (step.notFoundIsEmpty && error instanceof NotFoundError) return [];
      throw error;
    }
    return forZapier(z, result, step.output);
  };
}

/**
 * The fields a step shows: a step is a run of one row (choices that matter only for many rows at once are
 * left out), its fixed values are not asked, nor fields that show only for another value of a fixed one.
 */
export function shownFields(fields: readonly FormField[], fixed: FormValues = {}): FormField[] {
  return singleRowFields(fields).filter((field) => {
    if (field.key in fixed) return false;
    const condition = field.showWhen ?? {};
    const onFixed = Object.fromEntries(Object.entries(condition).filter(([key]) => key in fixed));
    return conditionHolds(onFixed, fixed, fields);
  });
}

/** A step that cannot be undone shows its warning first (a copy field). */
function warningFields(step: ZapierStep): object[] {
  return step.warning ? [{ key: 'warning', type: 'copy', helpText: step.warning }] : [];
}

/** The step's definition, generated: the words are the core's, the shape and the fixed values the exposure table's. */
export function stepDefinition(operation: Operation, step: ZapierStep) {
  const shown = shownFields(operation.fields, step.fixed);
  const definition = {
    key: step.key,
    noun: step.noun,
    display: { label: step.label, description: zapierDescription(operation, step, OPERATIONS), ...(step.hidden ? { hidden: true } : {}) },
    operation: {
      perform: performFor(operation, step),
      inputFields: [...warningFields(step), ...inputFieldsFor(shown, { extraHelp: step.extraHelp, linkSearch: step.linkSearch })],
      sample: zapierSample(operation, step.output, step.fixed),
      outputFields: zapierOutputFields(operation, step.output, step.fixed),
    },
  };
  return step.kind === 'create' ? defineCreate(definition as Parameters<typeof defineCreate>[0]) : defineSearch(definition as Parameters<typeof defineSearch>[0]);
}
