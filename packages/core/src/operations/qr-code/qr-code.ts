/**
 * QR codes of short links, as PNG or SVG. The matrix comes from a well-kept encoder (uqr: the reference
 * algorithm, UTF-8 byte mode, all versions and levels); this room only lays it out and draws it.
 */
import { encode } from 'uqr';
import { checkScannable, parseColour } from './colours';
import { layOut } from './layout';
import { renderPng } from './png';
import { renderSvg } from './svg';

export type QrFormat = 'png' | 'svg';
export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrCodeOptions {
  format: QrFormat;
  /** Width and height, pixels. */
  size: number;
  /** Modules of margin on each side (4 is the standard's). */
  quietZone: number;
  errorCorrection: QrErrorCorrection;
  /** #RRGGBB */
  foreground: string;
  background: string;
  /** The form's labels of these fields, for errors. */
  labels: { size: string; foreground: string; background: string };
}

export interface QrCodeImage {
  format: QrFormat;
  mimeType: 'image/png' | 'image/svg+xml';
  data: Uint8Array;
  /** Modules per side (without the quiet zone) and the QR version (1–40). */
  modules: number;
  version: number;
}

export function makeQrCode(text: string, options: QrCodeOptions): QrCodeImage {
  const foreground = parseColour(options.foreground, 'foreground', options.labels.foreground);
  const background = parseColour(options.background, 'background', options.labels.background);
  checkScannable(foreground, background, options.labels);
  const code = encode(text, { ecc: options.errorCorrection, border: 0 });
  const layout = layOut(code.data, options.quietZone, options.size, options.labels);
  const colours = { foreground, background };
  const data = options.format === 'png' ? renderPng(layout, colours) : new TextEncoder().encode(renderSvg(layout, colours));
  return { format: options.format, mimeType: options.format === 'png' ? 'image/png' : 'image/svg+xml', data, modules: code.size, version: code.version };
}
