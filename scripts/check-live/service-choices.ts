/**
 * Which choice the live service made where the spec is silent (docs/api-contract.md, "Where the service
 * may differ"), found the way the integrations find it: through the core's own client, whose service
 * profile records the paging form, the parameter names, the largest page, the record field names. The
 * answer is one line a user can send back. Read-only; the update and delete answers come from the write
 * checks (--write) when they ran.
 */
import { createClient, type ShortLinkClient } from '@shortlink/core';
import type { ServiceProfile } from '../../packages/core/src/reading/service-profile';
import { describeServiceProfile } from '../../packages/core/src/reading/service-profile';
import { listParametersFrom } from '../../packages/core/src/reading/served-openapi';
import { readUpdateAnswer } from '../../packages/core/src/reading/record-readers';
import { statusText } from '../../packages/core/src/http/error-from-response';

export interface ChoicesInput {
  baseUrl: string;
  apiKey: string;
  /** A key the service cannot know. */
  invalidKey: string;
  /** The served OpenAPI document as the raw check got it (undefined: not served), and its status. */
  document: { status: number | undefined; body: unknown };
  /** From the write checks: the PATCH answer and the DELETE status (undefined: not run). */
  update?: { status: number; body: unknown };
  deleteStatus?: number;
  timeoutMs?: number;
}

/** Pages walked to see how the list continues (2 links each, so that a small account pages too). */
const PROBE_PAGES = 3;

function short(error: unknown): string {
  return ((error as Error).message ?? String(error)).replace(/[;\n]/g, ' ').slice(0, 160);
}

/** What the served document is, and the list parameters it names. */
function documentSays(input: ChoicesInput['document']): { state: ServiceProfile['openApiDocument']; names?: string } {
  if (input.status !== 200) return { state: `not served (${input.status === undefined ? 'no answer' : statusText(input.status)})` };
  const names = listParametersFrom(input.body);
  if (!names) return { state: 'served, names no link list' };
  const parts = [`cursor=${names.cursor ?? '?'}`, `page size=${names.pageSize ?? '?'}`];
  if (names.maxPageSize !== undefined) parts.push(`max ${names.maxPageSize}`);
  return { state: 'served', names: parts.join(', ') };
}

async function probe(run: () => Promise<unknown>, notes: string[], what: string): Promise<void> {
  try {
    await run();
  } catch (error) {
    notes.push(`${what} stopped: ${short(error)}`);
  }
}

/** The one line, and the notes on what could not be found out. */
export async function detectServiceChoices(input: ChoicesInput): Promise<{ line: string; notes: string[] }> {
  const notes: string[] = [];
  const make = (apiKey: string): ShortLinkClient =>
    createClient({ baseUrl: input.baseUrl, apiKey, maxRetries: 1, requestTimeoutMs: input.timeoutMs ?? 20_000, callTimeoutMs: 120_000 });
  const client = make(input.apiKey);

  await probe(() => client.getAccount(), notes, 'GET /me');
  await probe(() => client.listDomains(), notes, 'GET /domains');
  // A page of 100 (learns the largest page when refused), then small pages to see the continuation.
  await probe(async () => {
    await client.listLinks({ limit: 100 });
    let cursor: string | undefined;
    for (let page = 0; page < PROBE_PAGES; page++) {
      const result = await client.listLinks(cursor === undefined ? { limit: 2 } : { limit: 2, cursor });
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
  }, notes, 'paging');

  let wrongKey = '(no answer)';
  try {
    await make(input.invalidKey).getAccount();
    wrongKey = '200 (the unknown key was accepted!)';
  } catch (error) {
    const e = error as { status?: number; kind?: string };
    wrongKey = e.status === undefined ? `no answer (${e.kind})` : `${e.status} (${e.kind === 'authentication' ? 'reconnect' : e.kind})`;
  }

  // The client's own view, completed with what the raw checks saw (the document, the write answers).
  const profile = client.serviceProfile();
  const document = documentSays(input.document);
  profile.openApiDocument = document.state;
  if (input.update) {
    profile.updateAnswer = readUpdateAnswer(input.update.body).kind;
    profile.updateStatus = input.update.status;
  }
  if (input.deleteStatus !== undefined) profile.deleteStatus = input.deleteStatus;
  const line = [
    'shortlink-service-choices/1',
    describeServiceProfile(profile),
    ...(document.names ? [`openapi.json names ${document.names}`] : []),
    `wrong key=${wrongKey}`,
    'plan without API access=(not checked: needs a key of such a plan)',
  ].join('; ');
  return { line, notes };
}
