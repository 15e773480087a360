/**
 * Every user-facing operation, once. Hosts index this list (n8n's resources, Zapier's creates and
 * searches, MCP's tools); adding an operation is one module here plus one line below
 * (docs/architecture.md, "How to add an operation").
 */
import { getAccount } from './account/get-account';
import { buildCampaignUrlOperation } from './campaign/build-campaign-url';
import { getDomains } from './domains/get-domains';
import { createLink } from './links/create-link';
import { deleteLink } from './links/delete-link';
import { findLinks } from './links/find-links';
import { findOrCreateLink } from './links/find-or-create-link';
import { findOrCreateMany } from './links/find-or-create-many';
import { getLink } from './links/get-link';
import { getLinks } from './links/get-links';
import { campaignReport } from './reports/campaign-report';
import { updateLink } from './links/update-link';
import { makeQrCodeOperation } from './qr-code/make-qr-code';
import { getStats } from './stats/get-stats';
import { clicksPerDayTrigger } from './triggers/clicks-per-day/trigger';
import { linkClicksTrigger } from './triggers/link-clicks';
import { newLinkTrigger } from './triggers/new-link';
import type { Operation } from './operation';
import type { Trigger } from './trigger';

export const OPERATIONS: readonly Operation[] = [
  createLink,
  updateLink,
  deleteLink,
  getLink,
  findLinks,
  findOrCreateLink,
  findOrCreateMany,
  getLinks,
  getStats,
  getDomains,
  getAccount,
  buildCampaignUrlOperation,
  makeQrCodeOperation,
  campaignReport,
];

export const TRIGGERS: readonly Trigger[] = [newLinkTrigger, linkClicksTrigger, clicksPerDayTrigger];

export function operationByKey(key: string): Operation {
  const operation = OPERATIONS.find((candidate) => candidate.key === key);
  if (!operation) throw new Error(`No operation ${key}`);
  return operation;
}

export function triggerByKey(key: string): Trigger {
  const trigger = TRIGGERS.find((candidate) => candidate.key === key);
  if (!trigger) throw new Error(`No trigger ${key}`);
  return trigger;
}

export { runOperation, runTrigger } from './run-operation';
export { createMemoryRunCache } from './memory-run-cache';
export { linkRecord, LINK_OUTPUT_FIELDS, LINK_RECORD_FIELDS, LINK_SAMPLE } from './link-record';
export { outputFieldsFor, outputWhen, sampleFor } from './output';
export { exposureOf, HOST_WORDING, isOffered, RESOURCE_WORDS, snakeCase, triggerExposureOf } from './exposure';
export type { Exposure, McpExposure, N8nExposure, NotOffered, TriggerExposure, ZapierOutputShape, ZapierStep } from './exposure';
export { agentDescription, agentSummary, errorLabels, firstSentence, nameOn, repeatSentence, zapierDescription } from './host-words';
export type { HostName } from './host-words';
export { LINK_ID_RULE, SHORT_URL_RULE } from './common-fields';
export type { ConditionalSample, OperationOutput, OperationSample, OutputField, OutputFile, OutputType } from './output';
export { UTM_FIELDS, UTM_PRESET_FIELD } from './link-fields';
export { MAX_AGENT_SHEET_ROWS, MAX_SHEET_ROWS, SHEET_ROW_FIELDS } from './links/find-or-create-many';
export { forSheets, rawRecord, RAW_VALUES_KEY, sheetSafeRecord } from './sheet-rows';
export type { Operation, OperationContext, OperationFile, OperationProgress, OperationRecord, OperationResult, OperationSafety, ResourceName, RunCache } from './operation';
export type { Trigger, TriggerContext, TriggerPoll } from './trigger';
