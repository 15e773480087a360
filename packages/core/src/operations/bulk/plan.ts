/**
 * The verdict of every row of a sheet before anything is written (issue 37): will create, already exists
 * (with the link), the same link as an earlier row, or will fail and why — invalid, a domain that is not
 * the account's, a slug taken (in the account or by an earlier row), a link that matches but does not
 * redirect, or over the plan's links left. The rules are Find or Create's own (creating/find-or-create.ts,
 * link-index/same-link.ts), played row by row in the sheet's order against what the account shows plus
 * what the rows before will have made, so the run that follows does exactly what the verdicts say.
 */
import { isSameLink, unusableReason, type SameLinkCriteria } from '../../link-index/same-link';
import type { CreateLinkInput, Link } from '../../types';

/** One row of the sheet as read: its input (UTM applied, checked), or why it cannot be read. */
export interface SheetRow {
  /** 1-based position in the rows given. */
  row: number;
  input?: CreateLinkInput;
  /** Why the row cannot be read (the field's label and the rule). */
  invalid?: string;
  /** An unreadable row as given (its columns in key order), so a changed one is another sheet. */
  given?: string;
}

export type VerdictKind = 'create' | 'exists' | 'duplicate' | 'fail';
export type FailReason = 'invalid' | 'domain' | 'slugTaken' | 'slugInSheet' | 'inactive' | 'quota';

export interface Verdict {
  row: number;
  kind: VerdictKind;
  input?: CreateLinkInput;
  /** exists: the link the account has. */
  link?: Link;
  /** duplicate: the earlier row whose link this row gets. */
  sameAsRow?: number;
  reason?: FailReason;
  /** fail: the sentence people read. */
  message?: string;
}

/** What the plan reads of the account; the client's link index answers (one walk for the whole sheet). */
export interface AccountView {
  /** Links that are "the same" as the input, earliest first (Find or Create's own lookup). */
  sameLinks(input: CreateLinkInput, reusableOnly: boolean): Promise<Link[]>;
  /** The link holding a slug on a domain (null: the default domain). */
  slugHolder(slug: string, domain: string | null): Promise<Link | undefined>;
  /** The account's verified custom domains in lower case; undefined when they could not be read. */
  verifiedDomains(): Promise<ReadonlySet<string> | undefined>;
  /** Links the plan has left this month; null when the service shows no quota. */
  linksLeft(): Promise<number | null>;
}

export interface PlanOptions {
  reuseInactive: boolean;
  now: number;
  /** Called after each row (progress). */
  onRow?: (done: number, total: number) => void;
}

export interface SheetPlan {
  verdicts: Verdict[];
  linksLeft: number | null;
}

/** A link the run will make: what a later row may turn out to be the same as. */
interface PlannedLink {
  row: number;
  input: CreateLinkInput;
}

function criteriaOf(input: CreateLinkInput): SameLinkCriteria {
  return { targetUrl: input.targetUrl, domain: input.domain ?? null, ...(input.slug === undefined ? {} : { slug: input.slug }) };
}

/** A planned link as the index would hold it; without a chosen slug the service (or the marker) picks one nobody can ask for. */
function plannedAsLink(planned: PlannedLink): Pick<Link, 'targetUrl' | 'slug' | 'domain'> {
  return { targetUrl: planned.input.targetUrl, slug: planned.input.slug ?? '\u0000chosen-at-create', domain: planned.input.domain ?? null };
}

function where(domain: string | null | undefined): string {
  return domain ? `on ${domain}` : 'on the default domain';
}

export async function planSheet(rows: readonly SheetRow[], view: AccountView, options: PlanOptions): Promise<SheetPlan> {
  const verdicts: Verdict[] = [];
  const creates: PlannedLink[] = [];
  /** Rows that found an account link, by its id: a later row with the same link is a duplicate of the first. */
  const foundBy = new Map<string, number>();
  const linksLeft = rows.some((row) => row.input) ? await view.linksLeft() : null;
  const domains = rows.some((row) => row.input?.domain) ? await view.verifiedDomains() : undefined;
  for (const row of rows) {
    verdicts.push(await verdictOf(row));
    options.onRow?.(verdicts.length, rows.length);
  }
  return { verdicts, linksLeft };

  async function verdictOf(row: SheetRow): Promise<Verdict> {
    const input = row.input;
    if (!input) return { row: row.row, kind: 'fail', reason: 'invalid', message: row.invalid ?? 'The row cannot be read.' };
    const criteria = criteriaOf(input);
    // Find or Create hands out the earliest link that is the same: one the account has before any the rows make.
    const [existing] = await view.sameLinks(input, !options.reuseInactive);
    if (existing) {
      const first = foundBy.get(String(existing.id));
      if (first !== undefined) return { row: row.row, kind: 'duplicate', input, sameAsRow: first, link: existing };
      foundBy.set(String(existing.id), row.row);
      return { row: row.row, kind: 'exists', input, link: existing };
    }
    const earlier = creates.find((planned) => isSameLink(plannedAsLink(planned), criteria));
    if (earlier) return { row: row.row, kind: 'duplicate', input, sameAsRow: earlier.row };
    const domain = input.domain ?? null;
    if (domain !== null && domains !== undefined && !domains.has(domain.toLowerCase())) {
      const list = domains.size === 0 ? 'the account has none' : `the account has ${[...domains].join(', ')}`;
      return fail(row, input, 'domain', `The domain ${domain} is not a verified custom domain of this account (${list}). Leave Domain empty for the default domain.`);
    }
    if (input.slug !== undefined) {
      const inSheet = creates.find((planned) => planned.input.slug === input.slug && (planned.input.domain ?? null) === domain);
      if (inSheet) return fail(row, input, 'slugInSheet', `The slug "${input.slug}" is used by row ${inSheet.row} for another link ${where(domain)}; a slug names one link. Give this row another slug, or leave it empty.`);
      const holder = await view.slugHolder(input.slug, domain);
      if (holder && isSameLink(holder, criteria)) {
        return fail(row, input, 'inactive', `The link with the slug "${input.slug}" (id ${holder.id}) already points to this target URL, but it is ${unusableReason(holder, options.now) ?? 'not reusable'}, so it is not reused, and a new link cannot have the same slug. Resume the link, choose another slug, or allow reusing inactive links.`);
      }
      if (holder) return fail(row, input, 'slugTaken', `The slug "${input.slug}" is taken ${where(domain)} by link ${holder.id} (to ${holder.targetUrl}). Choose another slug, or leave it empty.`);
    }
    if (linksLeft !== null && creates.length >= linksLeft) {
      return fail(row, input, 'quota', `Over the plan's links left: ${linksLeft} left this month, and the rows before this one take ${linksLeft === 1 ? 'it' : 'them all'}. This row is not sent; run it again next month or after raising the quota.`);
    }
    creates.push({ row: row.row, input });
    return { row: row.row, kind: 'create', input };
  }
}

function fail(row: SheetRow, input: CreateLinkInput, reason: FailReason, message: string): Verdict {
  return { row: row.row, kind: 'fail', input, reason, message };
}

/** The verdicts in totals. */
export function countVerdicts(verdicts: readonly Verdict[]): Record<VerdictKind, number> {
  const counts: Record<VerdictKind, number> = { create: 0, exists: 0, duplicate: 0, fail: 0 };
  for (const verdict of verdicts) counts[verdict.kind]++;
  return counts;
}
