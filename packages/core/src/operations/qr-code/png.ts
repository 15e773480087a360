/**
 * A QR matrix as a PNG image: 8-bit indexed colour with a two-colour palette, one row per pixel line,
 * compressed with zlib (fflate). Small and exactly the requested size.
 */
import { zlibSync } from 'fflate';
import type { Rgb } from './colours';
import type { QrLayout } from './layout';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function renderPng(layout: QrLayout, colours: { foreground: Rgb; background: Rgb }): Uint8Array {
  const { pixels } = layout;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, pixels);
  view.setUint32(4, pixels);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, palette colour, deflate, adaptive filter, no interlace
  const palette = new Uint8Array([colours.background.r, colours.background.g, colours.background.b, colours.foreground.r, colours.foreground.g, colours.foreground.b]);
  // Filter byte 0 (none) per line, then one palette index per pixel; the lines of one module row are equal,
  // so each is drawn once and copied.
  const line = pixels + 1;
  const raw = new Uint8Array(pixels * line);
  let previousRow = Number.NaN;
  for (let y = 0; y < pixels; y++) {
    const start = y * line;
    const moduleRow = layout.moduleRowAt(y);
    if (moduleRow === previousRow) {
      raw.copyWithin(start, start - line, start);
      continue;
    }
    for (let x = 0; x < pixels; x++) raw[start + 1 + x] = layout.darkAt(x, y) ? 1 : 0;
    previousRow = moduleRow;
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', zlibSync(raw, { level: 1 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
