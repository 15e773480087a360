/**
 * The table's check of one outcome against a case's `expect`, shared by the conformance table (the core's
 * outcome) and its subset in a real n8n (test/e2e/support/conformance-in-n8n.ts, n8n's outcome): the
 * expected records in order (each a subset of what came out), or an error whose message carries the
 * expected words and, where the case says so, is a "not found".
 */
import type { ConformanceCase } from './fixtures';
import type { Outcome } from './outcome';

export function checkExpected(outcome: Outcome, expected: ConformanceCase['expect']): void {
  if ('records' in expected) {
    expect({ failed: 'error' in outcome ? (outcome as { error: string }).error : false }).toEqual({ failed: false });
    const { records } = outcome as { records: Array<Record<string, unknown>> };
    expect(records).toHaveLength(expected.records.length);
    expected.records.forEach((record, index) => expect(records[index]).toMatchObject(record));
  } else {
    expect(outcome).toMatchObject({ error: expect.stringContaining(expected.error) });
    if (expected.notFound) expect(outcome).toMatchObject({ notFound: true });
  }
}
