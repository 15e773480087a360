/**
 * Every user-facing operation, once. Hosts index this list (n8n's resources, Zapier's creates and
 * searches, MCP's tools); adding an operation is one module here plus one line below
 * (docs/architecture.md, "How to add an operation").
 */
import { getLink } from './links/get-link';
import { makeQrCodeOperation } from './qr-code/make-qr-code';
import type { Operation } from './operation';

export const OPERATIONS: readonly Operation[] = [getLink, makeQrCodeOperation];

export function operationByKey(key: string): Operation {
  const operation = OPERATIONS.find((candidate) => candidate.key === key);
  if (!operation) throw new Error(`No operation ${key}`);
  return operation;
}

export { runOperation } from './run-operation';
export { linkRecord, LINK_RECORD_FIELDS } from './link-record';
export type { Operation, OperationContext, OperationFile, OperationRecord, OperationResult, OperationSafety, ResourceName, RunCache } from './operation';
