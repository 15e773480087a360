import { createStep } from '../adapter/step';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Make QR Code: the core's link.qrCode, its image as a file a later step can attach or upload. */
export const makeQrCode = createStep({
  key: 'make_qr_code',
  noun: 'QR Code',
  label: 'Make QR Code',
  description:
    "Makes a print-ready QR code (PNG or SVG) of a link's short URL, so scans count as clicks. Changes nothing, so it is safe to repeat. Returns the link's fields and the image as a file for a later step (email attachment, Google Drive upload).",
  operation: 'link.qrCode',
  output: { kind: 'object' },
  sample: { ...linkSample, qrCodeFileName: 'spring-sale.png', qrCodeMimeType: 'image/png', qrCodeText: linkSample.shortUrl, file: 'hydrate|||{"type":"file"}|||hydrate' },
  outputFields: [
    ...linkOutputFields,
    { key: 'file', label: 'QR Code File' },
    { key: 'qrCodeFileName', label: 'QR Code File Name' },
    { key: 'qrCodeMimeType', label: 'QR Code File Type' },
    { key: 'qrCodeText', label: 'Text in the QR Code (the Short URL)' },
  ],
});
