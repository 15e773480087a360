/**
 * `@shortlink/core/operations`: what hosts and agents run — every user-facing operation and trigger, once
 * (OPERATIONS, TRIGGERS), the one door to run them, and what they are described with: form fields, the
 * form reader, output fields and samples.
 */
export { OPERATIONS, TRIGGERS, operationByKey, triggerByKey } from '../operations';
export { runOperation, runTrigger } from '../operations/run-operation';
export { createMemoryRunCache } from '../operations/memory-run-cache';
export { ONE_PAGE_FORMS } from '../operations/links/get-links-page';
export { linkRecord, LINK_OUTPUT_FIELDS, LINK_RECORD_FIELDS, LINK_SAMPLE } from '../operations/link-record';
export { UTM_FIELDS, UTM_PRESET_FIELD } from '../operations/link-fields';
export { MAX_AGENT_SHEET_ROWS, MAX_SHEET_ROWS, SHEET_ROW_FIELDS } from '../operations/links/find-or-create-many';
export { outputFieldsFor, outputWhen, sampleFor } from '../operations/output';
export { buildCampaignUrl } from '../forms/campaign-url';
export { FormReader } from '../forms/form-values';
export type { FormCaller, FormValues } from '../forms/form-values';
export type { FieldChoice, FieldCondition, FieldConditionValue, FieldGroup, FieldKind, FormField } from '../forms/form-fields';
export type {
  Operation,
  OperationContext,
  OperationFile,
  OperationProgress,
  OperationRecord,
  OperationResult,
  OperationSafety,
  ResourceName,
  RunCache,
} from '../operations/operation';
export type { Trigger, TriggerContext, TriggerPoll } from '../operations/trigger';
export type { ConditionalSample, OperationOutput, OperationSample, OutputField, OutputFile, OutputType } from '../operations/output';
