/**
 * The app's creates, searches, search-or-creates and triggers, generated from the core's operations,
 * triggers and exposure table: an operation added to the core is a step here with no line of this package.
 */
import { errorLabels, exposureOf, isOffered, triggerExposureOf, type FieldLabels, type ZapierStep } from '@shortlink/core/host';
import { OPERATIONS, TRIGGERS } from '@shortlink/core/operations';
import { stepDefinition } from './adapter/step';
import { zapierTrigger } from './triggers/coreTrigger';

export interface GeneratedStep {
  kind: ZapierStep['kind'];
  key: string;
  definition: ReturnType<typeof stepDefinition>;
  /** The labels its errors name fields by. */
  labels: FieldLabels;
  searchOrCreate?: ZapierStep['searchOrCreate'] & { create: string };
}

export const STEPS: readonly GeneratedStep[] = OPERATIONS.flatMap((operation) => {
  const zapier = exposureOf(operation).zapier;
  if (!isOffered(zapier)) return [];
  return zapier.map((step) => ({
    kind: step.kind,
    key: step.key,
    definition: stepDefinition(operation, step),
    labels: errorLabels(operation.fields),
    ...(step.searchOrCreate ? { searchOrCreate: { ...step.searchOrCreate, create: step.key } } : {}),
  }));
});

export const CORE_TRIGGERS = TRIGGERS.filter((trigger) => isOffered(triggerExposureOf(trigger).zapier)).map((trigger) => ({
  definition: zapierTrigger(trigger),
  labels: errorLabels(trigger.fields),
}));
