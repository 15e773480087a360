/**
 * What Create and Find or Create add around the link itself: the plan-quota pre-flight of the run
 * (quota-run.ts) and the option "Also Make a QR Code" (the QR code of the link they return, as a file).
 */
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import type { QrCodeOptions } from '../../qr-code/qr-code';
import type { Link } from '../../types';
import { LINK_OUTPUT_FIELDS, linkRecord } from '../link-record';
import type { OperationRecord, OperationResult } from '../operation';
import { outputWhen, type OperationOutput, type OutputField } from '../output';
import { QR_CODE_FIELDS, QR_CODE_FILE, QR_CODE_OUTPUT_FIELDS, qrCodeFile, readQrCodeOptions } from '../qr-code/qr-code-fields';
import { QUOTA_POLICY_FIELD } from './quota-run';

export const ALSO_QR_CODE_FIELD: FormField = {
  key: 'alsoQrCode',
  label: 'Also Make a QR Code',
  kind: 'boolean',
  group: 'options',
  default: false,
  help: 'Whether to also return a QR code image of the short URL (PNG unless you choose SVG below), ready for print, email or a drive.',
};

export const NEW_LINK_EXTRA_FIELDS: readonly FormField[] = [QUOTA_POLICY_FIELD, ALSO_QR_CODE_FIELD, ...QR_CODE_FIELDS];

const WITH_QR_CODE = { alsoQrCode: [true] };

/** The one record of Create and Find or Create: the link, `extra` fields, and the QR code's when asked for. */
export function newLinkOutput(extra: readonly OutputField[] = []): OperationOutput {
  return {
    count: 'one',
    fields: [...LINK_OUTPUT_FIELDS, ...extra, ...outputWhen(WITH_QR_CODE, QR_CODE_OUTPUT_FIELDS)],
    file: { ...QR_CODE_FILE, when: WITH_QR_CODE },
  };
}

/** The QR settings when the option is on, checked before any request; undefined when it is off. */
export function readQrCodeWish(form: FormReader): QrCodeOptions | undefined {
  return form.flag('alsoQrCode') ? readQrCodeOptions(form) : undefined;
}

/** The one record of a new or found link, with its QR code file when one was asked for. */
export function newLinkResult(link: Link, extra: OperationRecord, qr: QrCodeOptions | undefined, notices: string[]): OperationResult {
  const record = { ...linkRecord(link), ...extra };
  const result: OperationResult = { records: [record], ...(notices.length > 0 ? { notices } : {}) };
  if (!qr) return result;
  const { file, fields } = qrCodeFile(link, qr, 0);
  return { ...result, records: [{ ...record, ...fields }], files: [file] };
}
