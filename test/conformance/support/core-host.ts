/** The core itself: runOperation with the standalone client (the reference every host must equal). */
import { createClient, NotFoundError, ShortLinkError } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core';
import type { Fixture } from './fixtures';
import { messageOf, type Outcome } from './outcome';

export async function runCore(operationKey: string, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const client = createClient({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey });
  try {
    const { records } = await runOperation(operationByKey(operationKey), client, values, { timeZone });
    return { records };
  } catch (error) {
    // A refusal reads "Title: detail"; every host shows the detail (the sentence in the form's words), the
    // title where the host has a place for it (n8n's message, Zapier's non-input errors).
    const parts = error instanceof ShortLinkError && error.detail !== undefined ? [error.detail] : undefined;
    return { error: messageOf(error), notFound: error instanceof NotFoundError, ...(parts ? { parts } : {}) };
  }
}
