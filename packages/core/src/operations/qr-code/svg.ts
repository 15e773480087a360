/** A QR matrix as an SVG image: one background rectangle and one path of dark modules, crisp at any scale. */
import { hexOf, type Rgb } from './colours';
import type { QrLayout } from './layout';

export function renderSvg(layout: QrLayout, colours: { foreground: Rgb; background: Rgb }): string {
  const { matrix, quietZone, pixels } = layout;
  const span = matrix.length + 2 * quietZone;
  let path = '';
  matrix.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + quietZone} ${y + quietZone}h1v1h-1z`;
    });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${span} ${span}" shape-rendering="crispEdges">` +
    `<rect width="${span}" height="${span}" fill="${hexOf(colours.background)}"/>` +
    `<path d="${path}" fill="${hexOf(colours.foreground)}"/></svg>`
  );
}
