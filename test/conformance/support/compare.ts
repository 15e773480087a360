/**
 * A host's outcome against the core's: the same records; the summary, notices and files wherever the host
 * shows them (a host with a place for the whole summary shows all of it, others the part they have a place
 * for); or a failure whose message carries what the core says. Shared by the table, the built zip and the
 * recipe test.
 */
import type { FileOutcome, Outcome, Shown } from './outcome';

export type HostName = 'n8n' | 'zapier' | 'mcp';

/** Hosts that show the whole summary (MCP's structured content); the others show part of it. */
const WHOLE_SUMMARY: readonly HostName[] = ['mcp'];

const byHash = (files: FileOutcome[] = []) => [...files].sort((a, b) => a.sha256.localeCompare(b.sha256));

function pick(summary: Record<string, unknown> = {}, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, summary[key]]));
}

export function checkSame(host: HostName, outcome: Outcome, core: Outcome): void {
  if ('records' in core) {
    expect({ host, failed: 'error' in outcome ? (outcome as { error: string }).error : false }).toEqual({ host, failed: false });
    const shown = outcome as Shown;
    expect({ host, records: shown.records }).toEqual({ host, records: core.records });
    if (shown.files !== undefined) expect({ host, files: byHash(shown.files) }).toEqual({ host, files: byHash(core.files) });
    if (shown.notices !== undefined) expect({ host, notices: shown.notices }).toEqual({ host, notices: core.notices ?? [] });
    if (shown.summary !== undefined) {
      const expected = WHOLE_SUMMARY.includes(host) ? core.summary : pick(core.summary, Object.keys(shown.summary));
      expect({ host, summary: shown.summary }).toEqual({ host, summary: expected });
    } else if (WHOLE_SUMMARY.includes(host)) {
      expect({ host, summary: undefined }).toEqual({ host, summary: core.summary });
    }
    return;
  }
  expect({ host, failed: 'error' in outcome }).toEqual({ host, failed: true });
  const failure = outcome as { error: string; notFound: boolean };
  // Zapier's searches answer "nothing found" where the core says the link does not exist.
  if (host === 'zapier' && failure.error === '' && failure.notFound) {
    expect(core.notFound).toBe(true);
    return;
  }
  for (const part of core.parts ?? [core.error]) expect({ host, error: failure.error }).toEqual({ host, error: expect.stringContaining(part) });
}
