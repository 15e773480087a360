/**
 * The review token of a preview (issue 37): a fingerprint of the rows as read (UTM applied, options
 * included) and one of the verdicts the account gave them, with the preview's time and its totals. The run
 * takes it back and refuses, in words, when the rows are not the ones previewed or the account no longer
 * gives the same verdicts — so what runs is what was reviewed. Plain text, safe to pass through a Slack
 * approval or an agent's context: it holds no row's content and no key.
 *
 * Form: `slr1-<rows>-<preview time, base 36>-<c>.<e>.<d>.<f>-<rows fingerprint>-<verdicts fingerprint>`.
 */
import { fingerprint64 } from '../../basics/fingerprint';
import { InputError } from '../../errors';
import { countVerdicts, type SheetRow, type Verdict, type VerdictKind } from './plan';

export interface ReviewToken {
  rows: number;
  /** When the preview began (epoch ms, this client's clock). */
  previewAt: number;
  counts: Record<VerdictKind, number>;
  rowsFingerprint: string;
  verdictsFingerprint: string;
}

const PREFIX = 'slr1';

/** What the rows say, as the run would send them, and the options that change the verdicts. */
export function rowsFingerprint(rows: readonly SheetRow[], options: { reuseInactive: boolean }): string {
  const lines = rows.map((row) => JSON.stringify(row.input ? [row.row, row.input.targetUrl, row.input.domain ?? null, row.input.slug ?? null, row.input.title ?? null] : [row.row, 'invalid', row.given ?? '', row.invalid ?? '']));
  return fingerprint64(`${options.reuseInactive ? 'reuse' : 'active'}\n${lines.join('\n')}`);
}

/** What the account gave each row: the verdict, the link found, the earlier row, the reason. */
export function verdictsFingerprint(verdicts: readonly Verdict[]): string {
  return fingerprint64(verdicts.map((v) => `${v.row}:${v.kind}:${v.link ? String(v.link.id) : ''}:${v.sameAsRow ?? ''}:${v.reason ?? ''}`).join('\n'));
}

export function makeReviewToken(rows: readonly SheetRow[], verdicts: readonly Verdict[], options: { reuseInactive: boolean; previewAt: number }): string {
  const counts = countVerdicts(verdicts);
  return [PREFIX, rows.length, Math.round(options.previewAt).toString(36), `${counts.create}.${counts.exists}.${counts.duplicate}.${counts.fail}`, rowsFingerprint(rows, options), verdictsFingerprint(verdicts)].join('-');
}

/** The token as given, checked; a refusal names the field and what a token looks like. */
export function readReviewToken(text: string, field: { key: string; label: string }): ReviewToken {
  const parts = text.trim().split('-');
  const [prefix, rows, at, counts, rowsPrint, verdictsPrint] = parts;
  const numbers = counts?.split('.').map(Number) ?? [];
  const readable =
    parts.length === 6 &&
    prefix === PREFIX &&
    /^\d+$/.test(rows ?? '') &&
    /^[0-9a-z]+$/.test(at ?? '') &&
    numbers.length === 4 &&
    numbers.every((n) => Number.isInteger(n) && n >= 0) &&
    /^[0-9a-f]{16}$/.test(rowsPrint ?? '') &&
    /^[0-9a-f]{16}$/.test(verdictsPrint ?? '');
  if (!readable) {
    throw new InputError(field.key, `"${field.label}" is not a review token of a preview (it starts with "${PREFIX}-"); got "${text.trim().slice(0, 60)}". Run a preview of the same rows and pass its reviewToken.`);
  }
  const [create, exists, duplicate, fail] = numbers as [number, number, number, number];
  return { rows: Number(rows), previewAt: parseInt(at!, 36), counts: { create, exists, duplicate, fail }, rowsFingerprint: rowsPrint!, verdictsFingerprint: verdictsPrint! };
}

/** The totals in words: "12 to create, 3 already there, 1 duplicate, 2 failing". */
export function countsInWords(counts: Record<VerdictKind, number>): string {
  return `${counts.create} to create, ${counts.exists} already there, ${counts.duplicate} duplicate${counts.duplicate === 1 ? '' : 's'}, ${counts.fail} failing`;
}
