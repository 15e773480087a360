/**
 * Make QR Code and Create Link's "Also Make a QR Code" in the Zapier app: the step returns the link and a
 * hydrated file (a pointer under Zapier's 12 000-byte limit); Zapier's hydrator draws the image again and
 * stashes it, and the image decodes (jsQR, independent of the encoder) to the short URL exactly.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { hydrators, type FilePointerData } from '../src/adapter/files';
import { decodePng, decodeSvg } from '../../core/test/qr-code/decode';
import { authData, newAppTester, run } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});

/** What Zapier does with a pointer when a later step wants the file: the hydrator, with z.stashFile. */
async function hydrate(pointer: unknown): Promise<{ bytes: Buffer; fileName: string; mimeType: string }> {
  expect(typeof pointer).toBe('string');
  const text = pointer as string;
  expect(text.length).toBeLessThan(12_000);
  // The pointer's "bundle" is what the hydrator later gets as bundle.inputData.
  const { bundle: inputData } = JSON.parse(text.replace(/^hydrate\|\|\|/, '').replace(/\|\|\|hydrate$/, '')) as { bundle: FilePointerData };
  let stashed: { bytes: Buffer; fileName: string; mimeType: string } | undefined;
  const z = {
    stashFile: async (data: Buffer, _length: number, fileName: string, mimeType: string) => {
      stashed = { bytes: data, fileName, mimeType };
      return 'https://zapier-files.example/stashed';
    },
  };
  await expect(hydrators.stashedFile(z as never, { inputData } as never)).resolves.toBe('https://zapier-files.example/stashed');
  return stashed!;
}

test('Make QR Code: a PNG file that decodes to the short URL, named after the slug', async () => {
  const link = await createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }).createLink({ targetUrl: 'https://example.org/print', slug: 'print-ad' });
  const output = await run<Record<string, unknown>>(newAppTester(), 'creates.make_qr_code', { authData: authData(sandbox.baseUrl, sandbox.apiKey), inputData: { link: link.shortUrl, qrSize: '1024' } });
  expect(output).toMatchObject({ shortUrl: link.shortUrl, qrCodeFileName: 'print-ad.png', qrCodeMimeType: 'image/png', qrCodeText: link.shortUrl });
  const file = await hydrate(output.file);
  expect(file).toMatchObject({ fileName: 'print-ad.png', mimeType: 'image/png' });
  expect(decodePng(file.bytes)).toBe(link.shortUrl);
});

test('Create Link with "Also Make a QR Code" (SVG): the new link, its QR sibling (utm_medium=qr) and the SVG of the sibling', async () => {
  const before = sandbox.links(sandbox.demoAccountId).length;
  const output = await run<Record<string, unknown>>(newAppTester(), 'creates.create_link', {
    authData: authData(sandbox.baseUrl, sandbox.apiKey),
    inputData: { targetUrl: 'https://example.org/flyer', slug: 'flyer-2026', alsoQrCode: 'true', qrFormat: 'svg' },
  });
  const links = sandbox.links(sandbox.demoAccountId);
  expect(links).toHaveLength(before + 2);
  const sibling = links.find((link) => link.id === output.qrLinkId)!;
  expect(sibling).toMatchObject({ targetUrl: 'https://example.org/flyer?utm_medium=qr', shortUrl: output.qrCodeText });
  expect(output).toMatchObject({ qrLinkCreated: true, slug: 'flyer-2026' });
  const file = await hydrate(output.file);
  expect(file).toMatchObject({ fileName: 'flyer-2026.svg', mimeType: 'image/svg+xml' });
  expect(decodeSvg(file.bytes.toString('utf8'))).toBe(sibling.shortUrl);
});

test('Create Link with "Also Make a QR Code" and "Count QR Scans Apart" off: one link, the code of the link itself', async () => {
  const before = sandbox.links(sandbox.demoAccountId).length;
  const output = await run<Record<string, unknown>>(newAppTester(), 'creates.create_link', {
    authData: authData(sandbox.baseUrl, sandbox.apiKey),
    inputData: { targetUrl: 'https://example.org/flyer-same', slug: 'flyer-same', alsoQrCode: 'true', qrScansApart: 'false', qrFormat: 'svg' },
  });
  expect(sandbox.links(sandbox.demoAccountId)).toHaveLength(before + 1);
  const file = await hydrate(output.file);
  expect(decodeSvg(file.bytes.toString('utf8'))).toBe(output.shortUrl);
  expect(output.qrLinkId).toBeUndefined();
});
