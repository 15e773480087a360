/**
 * The QR code's fields, shared by Make QR Code and the "Also Make a QR Code" option of Create and Find or
 * Create, and the one way a link and those fields become an image file.
 */
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import { checkScannable, parseColour } from './colours';
import { makeQrCode, type QrCodeOptions, type QrErrorCorrection, type QrFormat } from './qr-code';
import type { Link } from '../../types';
import type { OperationFile, OperationRecord } from '../operation';
import type { OutputField, OutputFile } from '../output';

export const QR_CODE_FIELDS: readonly FormField[] = [
  {
    key: 'qrFormat',
    label: 'QR Code Format',
    kind: 'choice',
    group: 'options',
    default: 'png',
    choices: [
      { value: 'png', label: 'PNG', help: 'An image for email, slides and the web' },
      { value: 'svg', label: 'SVG', help: 'A vector image that stays sharp at any print size' },
    ],
    help: 'PNG for screens and email; SVG for print, where it stays sharp at any size.',
  },
  { key: 'qrSize', label: 'QR Code Size (Pixels)', kind: 'number', group: 'options', default: 512, min: 64, max: 4096, help: 'Width and height of the image in pixels, from 64 to 4096.' },
  {
    key: 'qrQuietZone',
    label: 'QR Code Margin (Modules)',
    kind: 'number',
    group: 'options',
    default: 4,
    min: 0,
    max: 16,
    help: 'Empty border around the code, in code squares. Scanners need 4; use less only when the design gives the code space of its own.',
  },
  {
    key: 'qrErrorCorrection',
    label: 'QR Code Error Correction',
    kind: 'choice',
    group: 'options',
    default: 'M',
    choices: [
      { value: 'L', label: 'Low (7%)' },
      { value: 'M', label: 'Medium (15%)' },
      { value: 'Q', label: 'Quartile (25%)' },
      { value: 'H', label: 'High (30%)', help: 'For print that may get scratched or carry a logo' },
    ],
    help: 'How much of the code may be damaged or covered and still scan. Higher levels make denser codes.',
  },
  { key: 'qrForeground', label: 'QR Code Colour', kind: 'text', group: 'options', default: '#000000', placeholder: '#000000', help: 'Colour of the code squares, as # and six hex digits. Must be dark enough against the background to scan.' },
  { key: 'qrBackground', label: 'QR Code Background', kind: 'text', group: 'options', default: '#FFFFFF', placeholder: '#FFFFFF', help: 'Background colour, as # and six hex digits. Keep it light: dark backgrounds do not scan on many phones.' },
];

/** The fields a record gains with its QR code (qrCodeFile's `fields`). */
export const QR_CODE_OUTPUT_FIELDS: readonly OutputField[] = [
  { key: 'qrCodeFileName', label: 'QR Code File Name', type: 'string' },
  { key: 'qrCodeMimeType', label: 'QR Code File Type', type: 'string' },
  { key: 'qrCodeText', label: 'Text in the QR Code (the Short URL)', type: 'string' },
];

/** The QR code image a record carries. */
export const QR_CODE_FILE: OutputFile = { label: 'QR Code File', per: 'record', mimeTypes: ['image/png', 'image/svg+xml'] };

/** The QR code fields of a record of the sample link. */
export const QR_CODE_SAMPLE: OperationRecord = { qrCodeFileName: 'spring-sale.png', qrCodeMimeType: 'image/png', qrCodeText: 'https://go.example.org/spring-sale' };

/**
 * The QR code settings of a form, checked in full (the colour pair included) before any request is sent.
 */
export function readQrCodeOptions(form: FormReader): QrCodeOptions {
  const options: QrCodeOptions = {
    format: form.choice<QrFormat>('qrFormat') ?? 'png',
    size: form.number('qrSize') ?? 512,
    quietZone: form.number('qrQuietZone') ?? 4,
    errorCorrection: form.choice<QrErrorCorrection>('qrErrorCorrection') ?? 'M',
    foreground: form.text('qrForeground') ?? '#000000',
    background: form.text('qrBackground') ?? '#FFFFFF',
    labels: { size: form.label('qrSize'), foreground: form.label('qrForeground'), background: form.label('qrBackground') },
  };
  const foreground = parseColour(options.foreground, 'qrForeground', options.labels.foreground);
  const background = parseColour(options.background, 'qrBackground', options.labels.background);
  checkScannable(foreground, background, options.labels, 'qrForeground');
  return options;
}

/**
 * The QR code of a link's short URL (exactly), as a file named after the slug (or after `namedAfter`, the
 * link a QR sibling's code is for), and the fields telling of it.
 */
export function qrCodeFile(link: Link, options: QrCodeOptions, recordIndex: number, namedAfter: Link = link): { file: OperationFile; fields: OperationRecord } {
  const image = makeQrCode(link.shortUrl, options);
  const fileName = `${namedAfter.slug || `link-${namedAfter.id}`}.${options.format}`;
  return {
    file: { fileName, mimeType: image.mimeType, data: image.data, recordIndex, remake: { kind: 'qrCode', text: link.shortUrl, options } },
    fields: { qrCodeFileName: fileName, qrCodeMimeType: image.mimeType, qrCodeText: link.shortUrl },
  };
}
