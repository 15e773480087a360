/** Every drawn code is read back by an independent decoder and equals the text; bad settings are refused in words. */
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { InputError } from '@shortlink/core';
import { makeQrCode, type QrCodeOptions } from '../../src/operations/qr-code/qr-code';
import { contrastRatio, parseColour } from '../../src/operations/qr-code/colours';
import { decodePng, decodeSvg } from './decode';

const labels = { size: 'QR Code Size (Pixels)', foreground: 'QR Code Colour', background: 'QR Code Background' };
const base: QrCodeOptions = { format: 'png', size: 512, quietZone: 4, errorCorrection: 'M', foreground: '#000000', background: '#FFFFFF', labels };
const decode = (data: Uint8Array, format: 'png' | 'svg'): string | undefined =>
  format === 'png' ? decodePng(data) : decodeSvg(new TextDecoder().decode(data));

describe('QR codes read back as the short URL', () => {
  const urls = [
    'https://sho.rt/a',
    'https://go.example.org/spring-sale_2026',
    `https://sho.rt/${'x'.repeat(300)}`,
    'https://sho.rt/frühling-straße-促销',
  ];
  for (const format of ['png', 'svg'] as const) {
    for (const errorCorrection of ['L', 'M', 'Q', 'H'] as const) {
      test(`${format}, level ${errorCorrection}`, () => {
        for (const url of urls) {
          const image = makeQrCode(url, { ...base, format, errorCorrection, size: 600 });
          expect(decode(image.data, format)).toBe(url);
        }
      });
    }
  }

  test('the PNG has exactly the requested size, in the chosen colours', () => {
    for (const size of [64, 200, 512]) {
      const image = makeQrCode('https://sho.rt/a', { ...base, size, foreground: '#1A237E', background: '#FFF8E1' });
      const png = PNG.sync.read(Buffer.from(image.data));
      expect([png.width, png.height]).toEqual([size, size]);
      const colours = new Set<string>();
      for (let i = 0; i < png.data.length; i += 4) colours.add(`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}`);
      expect([...colours].sort()).toEqual(['255,248,225', '26,35,126'].sort());
      expect(decodePng(image.data)).toBe('https://sho.rt/a');
    }
  });

  test('any short URL, size and margin that fit decode back (property)', () => {
    fc.assert(
      fc.property(
        fc.webPath({ size: 'small' }),
        fc.integer({ min: 200, max: 400 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('L' as const, 'M' as const, 'Q' as const, 'H' as const),
        (path, size, quietZone, errorCorrection) => {
          const url = `https://sho.rt/s${path}`;
          const image = makeQrCode(url, { ...base, size, quietZone, errorCorrection });
          expect(decodePng(image.data)).toBe(url);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('settings that would not scan are refused before drawing', () => {
  test('too little contrast names both fields and the ratio', () => {
    const error = (() => {
      try {
        makeQrCode('https://sho.rt/a', { ...base, foreground: '#777777', background: '#999999' });
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error?.message).toMatch(/"QR Code Colour" #777777 and "QR Code Background" #999999 are too close to scan/);
    expect(contrastRatio(parseColour('#777777', 'f', 'F'), parseColour('#999999', 'f', 'F'))).toBeLessThan(4);
  });

  test('light on dark is refused with the advice to swap', () => {
    expect(() => makeQrCode('https://sho.rt/a', { ...base, foreground: '#FFFFFF', background: '#000000' })).toThrow(/must be darker than "QR Code Background".*Swap/);
  });

  test('a colour that is not hex names the field and shows an example', () => {
    expect(() => makeQrCode('https://sho.rt/a', { ...base, foreground: 'navy' })).toThrow('"QR Code Colour" must be a colour written as # and six hex digits, such as #1A1A1A; got "navy".');
  });

  test('a size too small for the code says how many pixels it needs', () => {
    expect(() => makeQrCode(`https://sho.rt/${'x'.repeat(300)}`, { ...base, size: 64 })).toThrow(/"QR Code Size \(Pixels\)" is too small for this link: its code needs at least \d+ pixels/);
  });
});
