/**
 * Find or Create Many (issue 37): a campaign sheet checked before it runs. The preview reads the account
 * once (the client's link index: one request per 100 links, plus the plan's links left and, when a row
 * names a domain, the verified domains) and says for every row what will happen — will create, already
 * exists (with the link), the same link as an earlier row, will fail and why — with the totals and a review
 * token. Submit takes the same rows and the token, refuses in words when they or the account's answers
 * changed, and then creates exactly what was previewed through the client's converging Find or Create,
 * paced by the client, resumable with the same token (bulk/).
 */
import { DeadlineError, InputError } from '../../errors';
import type { FormField } from '../../forms/form-fields';
import { FormReader, type FormValues } from '../../forms/form-values';
import { countVerdicts, planSheet, type SheetRow, type Verdict } from '../bulk/plan';
import { countsInWords, makeReviewToken, readReviewToken } from '../bulk/review-token';
import { checkAgainstToken, clientView, submitSheet, type Outcome, type OutcomeKind } from '../bulk/submit';
import type { Link } from '../../types';
import { DOMAIN_FIELD, readNewLink, SLUG_FIELD, TARGET_URL_FIELD, TITLE_FIELD, UTM_FIELDS } from '../link-fields';
import type { Operation, OperationContext, OperationRecord, OperationResult } from '../operation';
import type { ConditionalSample, OperationOutput, OperationSample, OutputField } from '../output';
import { REUSE_INACTIVE_FIELD } from './find-or-create-link';

/** Rows one call takes: a sheet of 1,000 campaign URLs is about 8 minutes of creates at 120 requests a minute. */
export const MAX_SHEET_ROWS = 1_000;
/** Rows an agent's call takes (MCP): every row comes back into the model's context. */
export const MAX_AGENT_SHEET_ROWS = 500;

/** The columns of one row, as a sheet has them: the fields of Find or Create that a sheet holds. */
export const SHEET_ROW_FIELDS: readonly FormField[] = [TARGET_URL_FIELD, DOMAIN_FIELD, ...UTM_FIELDS, SLUG_FIELD, TITLE_FIELD].map((field) => ({ ...field, group: 'main' as const }));

export const SHEET_MODE_FIELD: FormField = {
  key: 'mode',
  label: 'Step',
  kind: 'choice',
  group: 'main',
  required: true,
  default: 'preview',
  choices: [
    { value: 'preview', label: 'Preview (Write Nothing)', help: 'Says what each row would do and gives a review token; creates nothing' },
    { value: 'submit', label: 'Submit (Create What Was Previewed)', help: 'Creates the links the preview said it would, given the same rows and the review token' },
  ],
  help: 'Preview first: it reads the account once and says, row by row, what would be created, what already exists and what would fail and why. Then submit the same rows with the preview\'s review token.',
};

export const REVIEW_TOKEN_FIELD: FormField = {
  key: 'reviewToken',
  label: 'Review Token',
  kind: 'text',
  group: 'main',
  showWhen: { mode: ['submit'] },
  requiredWhen: { mode: ['submit'] },
  placeholder: 'e.g. slr1-20-…',
  help: 'The review token the preview of these rows gave (its summary\'s reviewToken). Required to submit: the run refuses rows or an account that changed since that preview.',
};

function sheetFields(max: number): FormField[] {
  return [
    SHEET_MODE_FIELD,
    {
      key: 'rows',
      label: 'Rows',
      kind: 'rows',
      group: 'main',
      required: true,
      max,
      rowFields: SHEET_ROW_FIELDS,
      help: `The campaign sheet, one row per link: Target URL (required), Domain, UTM Preset and UTM values, Slug, Title. At most ${max.toLocaleString('en-US')} rows at a time. UTM values are normalised as in Find or Create, so "Newsletter" and "newsletter" rows are one link.`,
    },
    REVIEW_TOKEN_FIELD,
    REUSE_INACTIVE_FIELD,
  ];
}

/** A row as given, its columns in key order (JSON), for the review token. */
function givenText(value: FormValues): string {
  return JSON.stringify(Object.keys(value).sort().map((key) => [key, value[key]]));
}

/** Each row read with its own form: errors name the column's label, and make the row's verdict, not the call's. */
function readRows(values: readonly FormValues[], context: OperationContext): SheetRow[] {
  return values.map((value, index) => {
    const form = new FormReader(value, SHEET_ROW_FIELDS);
    try {
      return { row: index + 1, input: readNewLink(form, context) };
    } catch (error) {
      // The team's UTM Presets setting is the connection's, not the row's: that error is the call's.
      if (error instanceof InputError && error.field !== 'utmPresets') return { row: index + 1, invalid: error.message, given: givenText(value) };
      throw error;
    }
  });
}

const PREVIEW_STATUS: Record<Verdict['kind'], string> = { create: 'will create', exists: 'already exists', duplicate: 'duplicate', fail: 'will fail' };
const RUN_STATUS: Record<OutcomeKind, string> = { created: 'created', exists: 'already exists', duplicate: 'duplicate', failed: 'failed', pending: 'not done yet' };

/** One row of the answer, the same columns in preview and submit, ready for a sheet. */
function rowRecord(row: number, status: string, raw: FormValues, verdict: Verdict, link: Link | undefined, reason: string | undefined, sameAsRow: number | undefined): OperationRecord {
  const input = verdict.input;
  return {
    row,
    status,
    shortUrl: link ? String(link.shortUrl ?? '') : '',
    linkId: link ? String(link.id) : '',
    sameAsRow: sameAsRow ?? null,
    reason: reason ?? '',
    targetUrl: input?.targetUrl ?? String(raw.targetUrl ?? ''),
    domain: input ? (input.domain ?? '') : String(raw.domain ?? ''),
    slug: input ? (input.slug ?? '') : String(raw.slug ?? ''),
    title: input ? (input.title ?? '') : String(raw.title ?? ''),
  };
}

/**
 * What a preview cannot see: on the default domain, which every account of the service shares, a slug may
 * be held by another account (the API shows an account its own links only); only the create can tell.
 */
const SHARED_SLUG_CAVEAT = 'The slug is free in this account; another account of the service may hold it on the shared default domain, which only the create can tell (the row would then fail, nothing else).';

function caveatOf(verdict: Verdict): string | undefined {
  return verdict.kind === 'create' && verdict.input?.slug !== undefined && !verdict.input.domain ? SHARED_SLUG_CAVEAT : undefined;
}

function progress(context: OperationContext, verb: string) {
  return (done: number, total: number) => context.onProgress?.({ done, total, message: `${verb} row ${done} of ${total}` });
}

async function preview(client: Parameters<Operation['run']>[0], raws: readonly FormValues[], rows: SheetRow[], reuseInactive: boolean, context: OperationContext): Promise<OperationResult> {
  const now = context.now ?? Date.now;
  const previewAt = now();
  const plan = await planSheet(rows, clientView(client), { reuseInactive, now: previewAt, onRow: progress(context, 'Checked') });
  const counts = countVerdicts(plan.verdicts);
  const reviewToken = makeReviewToken(rows, plan.verdicts, { reuseInactive, previewAt });
  const records = plan.verdicts.map((verdict) => rowRecord(verdict.row, PREVIEW_STATUS[verdict.kind], raws[verdict.row - 1]!, verdict, verdict.link, verdict.message ?? caveatOf(verdict), verdict.sameAsRow));
  return {
    records,
    summary: {
      mode: 'preview',
      rows: rows.length,
      willCreate: counts.create,
      alreadyExist: counts.exists,
      duplicates: counts.duplicate,
      willFail: counts.fail,
      linksLeft: plan.linksLeft,
      reviewToken,
      message: `Preview of ${rows.length} row${rows.length === 1 ? '' : 's'}: ${countsInWords(counts)}. Nothing was written. To create them, submit the same rows with this review token.`,
    },
  };
}

async function submit(client: Parameters<Operation['run']>[0], form: FormReader, raws: readonly FormValues[], rows: SheetRow[], reuseInactive: boolean, context: OperationContext): Promise<OperationResult> {
  const tokenText = form.text('reviewToken');
  const tokenField = { key: 'reviewToken', label: form.label('reviewToken') };
  if (tokenText === undefined) {
    throw new InputError('reviewToken', `"${tokenField.label}" is required to submit: preview the rows first (Step "${SHEET_MODE_FIELD.choices![0]!.label}") and pass its review token.`);
  }
  const token = readReviewToken(tokenText, tokenField);
  const now = context.now ?? Date.now;
  const started = now();
  const endAt = Math.min(context.deadlineAt ?? Infinity, context.timeLimitMs === undefined ? Infinity : started + context.timeLimitMs);
  // Progress counts the rows done (the check before them reads the same index the preview read).
  const checked = await checkAgainstToken(rows, token, clientView(client), { reuseInactive, now: started, tokenField });
  const outcomes = await submitSheet(client, checked, {
    reuseInactive,
    now,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(Number.isFinite(endAt) ? { endAt } : {}),
    onProgress: progress(context, 'Done with'),
  });
  const count = (kind: OutcomeKind) => outcomes.filter((outcome) => outcome.kind === kind).length;
  const notDone = count('pending');
  if (notDone > 0 && context.timeLimitMs !== undefined) {
    // A host whose step has a hard time limit (Zapier) runs the step again: the token goes on from here.
    throw new DeadlineError({
      title: 'Not finished in this step',
      message: `${outcomes.length - notDone} of the ${rows.length} rows were done before the step's time ran out (${count('created')} links created). Running the step again with the same rows and review token goes on from there; nothing is created twice.`,
      limitMs: context.timeLimitMs,
    });
  }
  const records = outcomes.map((outcome: Outcome) => rowRecord(outcome.row, RUN_STATUS[outcome.kind], raws[outcome.row - 1]!, outcome.verdict, outcome.link, outcome.message, outcome.sameAsRow));
  const done = `${count('created')} created, ${count('exists')} already there, ${count('duplicate')} duplicate${count('duplicate') === 1 ? '' : 's'}, ${count('failed')} failed`;
  return {
    records,
    summary: {
      mode: 'submit',
      rows: rows.length,
      created: count('created'),
      alreadyExist: count('exists'),
      duplicates: count('duplicate'),
      failed: count('failed'),
      notDone,
      complete: notDone === 0,
      message: notDone === 0 ? `Done: ${done}.` : `Stopped with ${notDone} rows not done yet (${done}). Submit the same rows with the same review token to finish them; nothing is created twice.`,
    },
  };
}

const PREVIEW = { mode: ['preview'] };
const SUBMIT = { mode: ['submit'] };

/** One record per row, the same columns in both steps (rowRecord). */
const ROW_OUTPUT_FIELDS: readonly OutputField[] = [
  { key: 'row', label: 'Row', type: 'integer' },
  { key: 'status', label: 'Status', type: 'string' },
  { key: 'shortUrl', label: 'Short URL', type: 'string' },
  { key: 'linkId', label: 'Link ID', type: 'string' },
  { key: 'sameAsRow', label: 'Duplicate of Row', type: 'integer', nullable: true },
  { key: 'reason', label: 'Reason', type: 'string' },
  { key: 'targetUrl', label: 'Target URL', type: 'string' },
  { key: 'domain', label: 'Domain', type: 'string' },
  { key: 'slug', label: 'Slug', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
];

export const FIND_OR_CREATE_MANY_OUTPUT: OperationOutput = {
  count: 'many',
  fields: ROW_OUTPUT_FIELDS,
  summary: [
    { key: 'mode', label: 'Step', type: 'string' },
    { key: 'rows', label: 'Rows', type: 'integer' },
    { key: 'willCreate', label: 'Will Create', type: 'integer', when: PREVIEW },
    { key: 'created', label: 'Created', type: 'integer', when: SUBMIT },
    { key: 'alreadyExist', label: 'Already Exist', type: 'integer' },
    { key: 'duplicates', label: 'Duplicates', type: 'integer' },
    { key: 'willFail', label: 'Will Fail', type: 'integer', when: PREVIEW },
    { key: 'failed', label: 'Failed', type: 'integer', when: SUBMIT },
    { key: 'linksLeft', label: 'Links Left in the Plan', type: 'integer', nullable: true, when: PREVIEW },
    { key: 'reviewToken', label: 'Review Token', type: 'string', when: PREVIEW },
    { key: 'notDone', label: 'Not Done Yet', type: 'integer', when: SUBMIT },
    { key: 'complete', label: 'Complete', type: 'boolean', when: SUBMIT },
    { key: 'message', label: 'Message', type: 'string' },
  ],
};

export const FIND_OR_CREATE_MANY_SAMPLE: OperationSample = {
  records: [
    { row: 1, status: 'will create', shortUrl: '', linkId: '', sameAsRow: null, reason: '', targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale', domain: 'go.example.org', slug: '', title: 'Spring newsletter' },
    { row: 2, status: 'duplicate', shortUrl: '', linkId: '', sameAsRow: 1, reason: '', targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale', domain: 'go.example.org', slug: '', title: 'Spring newsletter' },
    { row: 3, status: 'already exists', shortUrl: 'https://go.example.org/spring-sale', linkId: '1042', sameAsRow: null, reason: '', targetUrl: 'https://example.org/spring-sale', domain: 'go.example.org', slug: 'spring-sale', title: 'Spring sale' },
  ],
  summary: {
    mode: 'preview',
    rows: 3,
    willCreate: 1,
    alreadyExist: 1,
    duplicates: 1,
    willFail: 0,
    linksLeft: 480,
    // Put together, not one literal: n8n's package scanner takes a literal under a "token" key for a secret.
    reviewToken: ['slr1', 3, 'mx0z8ktu', '1.1.1.0', '4765c76d072e89d6', 'fe451350c3fc1b10'].join('-'),
    message: 'Preview of 3 rows: 1 to create, 1 already there, 1 duplicate, 0 failing. Nothing was written. To create them, submit the same rows with this review token.',
  },
};

/** What Submit gives for the sample's rows: the link made for rows 1 and 2, row 3's as it was. */
export const FIND_OR_CREATE_MANY_SUBMIT_SAMPLE: ConditionalSample = {
  when: SUBMIT,
  records: FIND_OR_CREATE_MANY_SAMPLE.records.map((record) =>
    record.status === 'already exists' ? record : { ...record, status: record.status === 'will create' ? 'created' : record.status, shortUrl: 'https://go.example.org/x7Kp2mQa9z', linkId: '1044' },
  ),
  summary: { mode: 'submit', rows: 3, created: 1, alreadyExist: 1, duplicates: 1, failed: 0, notDone: 0, complete: true, message: 'Done: 1 created, 1 already there, 1 duplicate, 0 failed.' },
};

function findOrCreateManyWith(max: number): Operation {
  return {
    key: 'link.findOrCreateMany',
    resource: 'link',
    action: 'findOrCreateMany',
    label: 'Find or Create Many',
    description:
      `Checks a sheet of up to ${max.toLocaleString('en-US')} campaign URLs before anything is written: Preview says per row whether its link will be created, already exists (with the link) or would fail and why, with totals and a review token; Submit with that token creates exactly what was previewed, refusing rows or an account that changed.`,
    safety: { readOnly: false, destructive: false, idempotent: true, repeat: 'a preview writes nothing, and a submit rerun with the same token makes no link twice' },
    fields: sheetFields(max),
    output: FIND_OR_CREATE_MANY_OUTPUT,
    sample: FIND_OR_CREATE_MANY_SAMPLE,
    samples: [FIND_OR_CREATE_MANY_SUBMIT_SAMPLE],
    async run(client, form, context) {
      const mode = form.choice<'preview' | 'submit'>('mode') ?? 'preview';
      const raws = form.rows('rows');
      const rows = readRows(raws, context);
      const reuseInactive = form.flag('reuseInactive');
      return mode === 'preview' ? preview(client, raws, rows, reuseInactive, context) : submit(client, form, raws, rows, reuseInactive, context);
    },
  };
}

export const findOrCreateMany: Operation = findOrCreateManyWith(MAX_SHEET_ROWS);

/** The form an agent's call gets (MCP): at most MAX_AGENT_SHEET_ROWS rows a call. */
export const findOrCreateManyForAgents: Operation = findOrCreateManyWith(MAX_AGENT_SHEET_ROWS);
