/**
 * An independent reader of the codes this project draws: jsQR (a decoder written apart from the encoder)
 * over the PNG as pngjs reads it, and over the SVG as this file rasterises its rectangles and path.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

export function decodePng(png: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(png));
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

/** Reads the SVG's viewBox, fill colours and unit squares (M x y h1v1h-1z), draws them 8 px per module. */
export function decodeSvg(svg: string): string | undefined {
  const span = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const [, background = '#FFFFFF'] = /<rect [^>]*fill="(#[0-9A-F]{6})"/i.exec(svg) ?? [];
  const [, path = '', foreground = '#000000'] = /<path d="([^"]*)" fill="(#[0-9A-F]{6})"/i.exec(svg) ?? [];
  const scale = 8;
  const pixels = span * scale;
  const rgba = new Uint8ClampedArray(pixels * pixels * 4);
  const paint = (x: number, y: number, hex: string): void => {
    const offset = (y * pixels + x) * 4;
    rgba.set([parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16), 255], offset);
  };
  for (let y = 0; y < pixels; y++) for (let x = 0; x < pixels; x++) paint(x, y, background);
  for (const [, mx, my] of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) paint(Number(mx) * scale + dx, Number(my) * scale + dy, foreground);
  }
  return jsQR(rgba, pixels, pixels)?.data;
}
