/**
 * Colours of a QR code as people type them (#RGB or #RRGGBB), and whether a pair can be scanned: phone
 * cameras need dark modules on a light background with enough contrast between them.
 */
import { InputError } from '../../errors';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** Least contrast ratio (WCAG's measure, 1 to 21) at which common phone cameras read a code reliably. */
export const MIN_CONTRAST = 4;

export function parseColour(text: string, field: string, label: string): Rgb {
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim())?.[1];
  if (!hex) throw new InputError(field, `"${label}" must be a colour written as # and six hex digits, such as #1A1A1A; got "${text}".`);
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
}

export function hexOf({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((part) => part.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

function luminance({ r, g, b }: Rgb): number {
  const linear = (value: number): number => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours, 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Refuses a pair that many cameras cannot read, in words and naming both fields. */
export function checkScannable(foreground: Rgb, background: Rgb, labels: { foreground: string; background: string }, field = 'foreground'): void {
  if (luminance(foreground) >= luminance(background)) {
    throw new InputError(
      field,
      `"${labels.foreground}" must be darker than "${labels.background}": many phone cameras cannot read light codes on a dark background. Swap the two colours.`,
    );
  }
  const ratio = contrastRatio(foreground, background);
  if (ratio < MIN_CONTRAST) {
    throw new InputError(
      field,
      `"${labels.foreground}" ${hexOf(foreground)} and "${labels.background}" ${hexOf(background)} are too close to scan reliably (contrast ${ratio.toFixed(1)} : 1; at least ${MIN_CONTRAST} : 1 is needed). Choose a darker foreground or a lighter background.`,
    );
  }
}
