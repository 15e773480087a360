/**
 * Where each module of a QR code lands in an image of the requested size: whole pixels per module (a
 * blurred edge scans badly), with the pixels left over added to the quiet zone around it.
 */
import { InputError } from '../../errors';

export interface QrLayout {
  matrix: boolean[][];
  /** Modules of light margin on each side (the "quiet zone" scanners need). */
  quietZone: number;
  /** Width and height of the image, pixels. */
  pixels: number;
  /** Pixels per module. */
  scale: number;
  darkAt(x: number, y: number): boolean;
  /** The module row a pixel line shows (-1 in the margin): equal lines are drawn once. */
  moduleRowAt(y: number): number;
}

export function layOut(matrix: boolean[][], quietZone: number, pixels: number, labels: { size: string }): QrLayout {
  const span = matrix.length + 2 * quietZone;
  const scale = Math.floor(pixels / span);
  if (scale < 1) {
    throw new InputError('size', `"${labels.size}" is too small for this link: its code needs at least ${span} pixels (${matrix.length} modules and the quiet zone). Use a larger size or a smaller quiet zone.`);
  }
  const offset = Math.floor((pixels - scale * matrix.length) / 2);
  return {
    matrix,
    quietZone,
    pixels,
    scale,
    moduleRowAt(y) {
      const row = Math.floor((y - offset) / scale);
      return y < offset || row >= matrix.length ? -1 : row;
    },
    darkAt(x, y) {
      const column = Math.floor((x - offset) / scale);
      const row = Math.floor((y - offset) / scale);
      return x >= offset && y >= offset && row < matrix.length && column < matrix.length && matrix[row]![column] === true;
    },
  };
}
