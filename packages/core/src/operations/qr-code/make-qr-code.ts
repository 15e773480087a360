import { LINK_FIELD, readLinkId } from '../common-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Operation } from '../operation';
import { QR_CODE_FIELDS, QR_CODE_FILE, QR_CODE_OUTPUT_FIELDS, QR_CODE_SAMPLE, qrCodeFile, readQrCodeOptions } from './qr-code-fields';

/**
 * Make QR Code: a print-ready PNG or SVG that opens the link's short URL (the encoded text is the short URL
 * exactly, so scans are counted as clicks). The colours and size are checked before anything is read.
 */
export const makeQrCodeOperation: Operation = {
  key: 'link.qrCode',
  resource: 'link',
  action: 'qrCode',
  label: 'Make QR Code',
  description: 'Reads one short link and returns a QR code image (PNG or SVG) of its short URL, plus the link\'s fields. Changes nothing.',
  safety: { readOnly: true, destructive: false, idempotent: true },
  fields: [LINK_FIELD, ...QR_CODE_FIELDS.map((field) => ({ ...field, group: 'main' as const }))],
  output: { count: 'one', fields: [...LINK_OUTPUT_FIELDS, ...QR_CODE_OUTPUT_FIELDS], file: QR_CODE_FILE },
  sample: { records: [{ ...LINK_SAMPLE, ...QR_CODE_SAMPLE }] },
  async run(client, form) {
    // Colours and sizes are refused before the link is read (no request for input the client can reject).
    const options = readQrCodeOptions(form);
    const link = await client.getLink(await readLinkId(client, form));
    const { file, fields } = qrCodeFile(link, options, 0);
    return { records: [{ ...linkRecord(link), ...fields }], files: [file] };
  },
};
