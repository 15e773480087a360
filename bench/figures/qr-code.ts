/**
 * QR codes: the time to draw one (PNG 512 px and SVG, level M) for a typical short URL, side by side with
 * one Get Link over loopback in the same run. A read over a real network takes 20–100 times a loopback one,
 * so drawing within 5 loopback reads adds little to the read it follows.
 */
import { performance } from 'node:perf_hooks';
import { startSandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';
import { makeQrCode } from '../../packages/core/src/operations/qr-code/qr-code';
import { median } from '../lib/statistics';
import { row, type ResultRow } from '../lib/results';

const labels = { size: 'Size', foreground: 'Colour', background: 'Background' };

export async function qrCodeFigures(options: { rounds: number; log: (line: string) => void }): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  try {
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
    const link = await client.createLink({ targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_campaign=spring_sale', slug: 'spring-sale-2026' });
    const time = (run: () => unknown): number => {
      const started = performance.now();
      run();
      return performance.now() - started;
    };
    const png: number[] = [];
    const svg: number[] = [];
    const get: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      png.push(time(() => makeQrCode(link.shortUrl, { format: 'png', size: 512, quietZone: 4, errorCorrection: 'M', foreground: '#000000', background: '#FFFFFF', labels })));
      svg.push(time(() => makeQrCode(link.shortUrl, { format: 'svg', size: 512, quietZone: 4, errorCorrection: 'M', foreground: '#000000', background: '#FFFFFF', labels })));
      const started = performance.now();
      await client.getLink(link.id);
      get.push(performance.now() - started);
    }
    const [pngMs, svgMs, getMs] = [median(png), median(svg), median(get)];
    options.log(`  QR: PNG ${pngMs.toFixed(2)} ms, SVG ${svgMs.toFixed(2)} ms, Get Link ${getMs.toFixed(2)} ms (medians of ${options.rounds})`);
    return [
      row('QR code: PNG 512 px draw time ÷ one Get Link on loopback', pngMs / getMs, '×', { op: '<=', target: 5 }, `${getMs.toFixed(2)} ms`, `PNG ${pngMs.toFixed(2)} ms (median of ${options.rounds})`),
      row('QR code: SVG draw time ÷ one Get Link on loopback', svgMs / getMs, '×', { op: '<=', target: 5 }, `${getMs.toFixed(2)} ms`, `SVG ${svgMs.toFixed(2)} ms (median of ${options.rounds})`),
    ];
  } finally {
    await sandbox.close();
  }
}
