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
import { getLink } from './links/get-link';
import { getLinks } from './links/get-links';
import { campaignReport } from './reports/campaign-report';
import { updateLink } from './links/update-link';
import { makeQrCodeOperation } from './qr-code/make-qr-code';
import { getStats } from './stats/get-stats';
import { clicksPerDayTrigger } from './triggers/clicks-per-day';
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
export { outputFieldsFor, outputWhen } from './output';
export type { OperationOutput, OperationSample, OutputField, OutputFile, OutputType } from './output';
export { UTM_FIELDS } from './link-fields';
export type { Operation, OperationContext, OperationFile, OperationProgress, OperationRecord, OperationResult, OperationSafety, ResourceName, RunCache } from './operation';
export type { Trigger, TriggerContext, TriggerPoll } from './trigger';
