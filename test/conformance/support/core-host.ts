/** The core itself: runOperation with the standalone client (the reference every host must equal). */
import { createClient, NotFoundError, ShortLinkError } from '@shortlink/core';
import { operationByKey, runOperation, type OperationResult } from '@shortlink/core/operations';
import type { FormCaller } from '@shortlink/core/operations';
import type { Fixture } from './fixtures';
import { fileOutcome, messageOf, type Outcome } from './outcome';
import { expectDeclaredOutput } from '../../../packages/core/test/operations/declared-output';

/** `caller: 'agent'` gives the sentences an agent reads (MCP's), 'person' those people read (n8n, Zapier). */
export async function runCore(operationKey: string, values: Record<string, unknown>, fixture: Fixture, timeZone: string, caller: FormCaller = 'person'): Promise<Outcome> {
  const client = createClient({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey });
  const operation = operationByKey(operationKey);
  let result: OperationResult;
  try {
    result = await runOperation(operation, client, values, { timeZone, caller });
  } catch (error) {
    // A refusal reads "Title: detail"; every host shows the detail (the sentence in the form's words), the
    // title where the host has a place for it (n8n's message, Zapier's non-input errors).
    const parts = error instanceof ShortLinkError && error.detail !== undefined ? [error.detail] : undefined;
    return { error: messageOf(error), notFound: error instanceof NotFoundError, ...(parts ? { parts } : {}) };
  }
  // What the core gives is what the operation declares (its output fields): hosts generate from them.
  expectDeclaredOutput(operation, values, result);
  return {
    records: result.records,
    ...(result.summary ? { summary: result.summary } : {}),
    notices: result.notices ?? [],
    files: (result.files ?? []).map((file) => fileOutcome(file.mimeType, file.data)),
  };
}
