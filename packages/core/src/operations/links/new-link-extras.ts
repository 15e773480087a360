/**
 * What Create and Find or Create add around the link itself: the plan-quota pre-flight of the run
 * (quota-run.ts) and the option "Also Make a QR Code" — the QR code, as a file, of the link's QR sibling
 * (the same target with utm_medium=qr, found or created like Find or Create, so that its scans are counted
 * apart: reports/qr-sibling.ts), or of the link itself when "Count QR Scans Apart" is off.
 */
import type { ShortLinkClient } from '../../client';
import { completeCreatedLink } from '../../creating/new-link';
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import type { QrCodeOptions } from '../qr-code/qr-code';
import { qrSiblingTarget } from '../reports/qr-sibling';
import type { CreateLinkInput, Link } from '../../types';
import { LINK_OUTPUT_FIELDS, linkRecord } from '../link-record';
import type { OperationContext, OperationRecord, OperationResult } from '../operation';
import { outputWhen, type OperationOutput, type OutputField } from '../output';
import { QR_CODE_FIELDS, QR_CODE_FILE, QR_CODE_OUTPUT_FIELDS, qrCodeFile, readQrCodeOptions } from '../qr-code/qr-code-fields';
import { QUOTA_POLICY_FIELD, quotaGate } from './quota-run';

export const ALSO_QR_CODE_FIELD: FormField = {
  key: 'alsoQrCode',
  label: 'Also Make a QR Code',
  kind: 'boolean',
  group: 'options',
  default: false,
  help: 'Whether to also return a QR code image of the short URL (PNG unless you choose SVG below), ready for print, email or a drive.',
};

export const QR_SCANS_APART_FIELD: FormField = {
  key: 'qrScansApart',
  label: 'Count QR Scans Apart',
  kind: 'boolean',
  group: 'options',
  default: true,
  help: 'With Also Make a QR Code: the code opens a QR link of its own — the same page with utm_medium=qr, reused when it exists — so the Campaign Report shows its scans apart from the link\'s clicks. It takes one more link of the plan the first time. Off: the code opens this link, and scans count as its clicks.',
};

export const NEW_LINK_EXTRA_FIELDS: readonly FormField[] = [QUOTA_POLICY_FIELD, ALSO_QR_CODE_FIELD, QR_SCANS_APART_FIELD, ...QR_CODE_FIELDS];

export interface QrCodeWish {
  options: QrCodeOptions;
  /** The code opens the link's QR sibling (scans counted apart), not the link itself. */
  apart: boolean;
}

const WITH_QR_CODE = { alsoQrCode: [true] };

/** The one record of Create and Find or Create: the link, `extra` fields, and the QR code's when asked for. */
/** What tells of the QR sibling, when the code opens one (Count QR Scans Apart, on by default). */
const QR_SIBLING_OUTPUT_FIELDS: readonly OutputField[] = [
  { key: 'qrLinkId', label: 'QR Link ID', type: 'string' },
  { key: 'qrLinkCreated', label: 'QR Link Created', type: 'boolean' },
];

export function newLinkOutput(extra: readonly OutputField[] = []): OperationOutput {
  return {
    count: 'one',
    fields: [
      ...LINK_OUTPUT_FIELDS,
      ...extra,
      ...outputWhen({ ...WITH_QR_CODE, [QR_SCANS_APART_FIELD.key]: [true] }, QR_SIBLING_OUTPUT_FIELDS),
      ...outputWhen(WITH_QR_CODE, QR_CODE_OUTPUT_FIELDS),
    ],
    file: { ...QR_CODE_FILE, when: WITH_QR_CODE },
  };
}

/** The QR settings when the option is on, checked before any request; undefined when it is off. */
export function readQrCodeWish(form: FormReader): QrCodeWish | undefined {
  return form.flag('alsoQrCode') ? { options: readQrCodeOptions(form), apart: form.flag(QR_SCANS_APART_FIELD.key) } : undefined;
}

/** Links one row may make: the link, and its QR sibling when scans are counted apart. */
export function linksPerRow(qr: QrCodeWish | undefined): number {
  return qr?.apart ? 2 : 1;
}

/** How the QR sibling is found or made: with the run's quota gate and the row's wish about inactive links. */
export interface QrSiblingRun {
  client: ShortLinkClient;
  form: FormReader;
  context: OperationContext;
  notices: string[];
  reuseInactive?: boolean;
}

/**
 * The link's QR sibling, found or created through the client's Find or Create (the same "same link", the
 * same convergence), on the link's domain, titled after the link.
 */
async function qrSibling(link: Link, run: QrSiblingRun): Promise<{ link: Link; created: boolean }> {
  const input: CreateLinkInput = { targetUrl: qrSiblingTarget(link.targetUrl) };
  if (typeof link.domain === 'string' && link.domain !== '') input.domain = link.domain;
  if (typeof link.title === 'string' && link.title !== '') input.title = `${link.title} (QR code)`;
  const createGate = quotaGate(run.client, run.form, run.context, (notice) => run.notices.push(notice), 2);
  const found = await run.client.findOrCreateLink(input, { reuseInactive: run.reuseInactive === true, createGate });
  return { link: completeCreatedLink(found.link, input), created: found.created };
}

/**
 * The one record of a new or found link, with its QR code file when one was asked for: the code of its QR
 * sibling (`qrLinkId`, `qrLinkCreated` say which link, `qrCodeText` its short URL) or of the link itself.
 */
export async function newLinkResult(link: Link, extra: OperationRecord, qr: QrCodeWish | undefined, run: QrSiblingRun): Promise<OperationResult> {
  const record = { ...linkRecord(link), ...extra };
  const withNotices = (result: OperationResult): OperationResult => (run.notices.length > 0 ? { ...result, notices: run.notices } : result);
  if (!qr) return withNotices({ records: [record] });
  const sibling = qr.apart ? await qrSibling(link, run) : undefined;
  const coded = sibling?.link ?? link;
  // The file is named after the link people know (its slug), whichever link the code opens.
  const { file, fields } = qrCodeFile(coded, qr.options, 0, link);
  const about = sibling ? { qrLinkId: String(sibling.link.id), qrLinkCreated: sibling.created } : {};
  return withNotices({ records: [{ ...record, ...about, ...fields }], files: [file] });
}
