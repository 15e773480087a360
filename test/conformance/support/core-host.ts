/** The core itself: runOperation with the standalone client (the reference every host must equal). */
import { createClient, NotFoundError } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core';
import type { Fixture } from './fixtures';
import { messageOf, type Outcome } from './outcome';

export async function runCore(operationKey: string, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const client = createClient({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey });
  try {
    const { records } = await runOperation(operationByKey(operationKey), client, values, { timeZone });
    return { records };
  } catch (error) {
    return { error: messageOf(error), notFound: error instanceof NotFoundError };
  }
}
