/** Make QR Code through the sandbox: the image decodes to the link's short URL; bad settings send nothing. */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createAxiosTransport, createClient, InputError, type Transport } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { decodePng, decodeSvg } from '../qr-code/decode';

let sandbox: Sandbox;
let requests = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

function countingClient() {
  const axios = createAxiosTransport({ apiKey: sandbox.apiKey });
  const transport: Transport = (request) => {
    requests += 1;
    return axios(request);
  };
  return createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport });
}

const qrCode = operationByKey('link.qrCode');

test('by ID and by short URL, PNG and SVG, the file decodes to the short URL and is named after the slug', async () => {
  const client = countingClient();
  const link = await client.createLink({ targetUrl: 'https://example.org/spring', slug: 'qr-spring' });
  const png = await runOperation(qrCode, client, { link: link.id });
  expect(png.records[0]).toMatchObject({ shortUrl: link.shortUrl, id: link.id, qrCodeFileName: 'qr-spring.png', qrCodeMimeType: 'image/png', qrCodeText: link.shortUrl });
  expect(png.files?.[0]).toMatchObject({ fileName: 'qr-spring.png', mimeType: 'image/png', recordIndex: 0 });
  expect(decodePng(png.files![0]!.data)).toBe(link.shortUrl);
  const svg = await runOperation(qrCode, client, { link: link.shortUrl, qrFormat: 'SVG', qrSize: '300', qrErrorCorrection: 'High (30%)' });
  expect(svg.files?.[0]).toMatchObject({ fileName: 'qr-spring.svg', mimeType: 'image/svg+xml' });
  expect(decodeSvg(new TextDecoder().decode(svg.files![0]!.data))).toBe(link.shortUrl);
});

test.each([
  [{ qrForeground: '#FFFFFF', qrBackground: '#222222' }, /"QR Code Colour" must be darker than "QR Code Background"/],
  [{ qrForeground: '#888888', qrBackground: '#AAAAAA' }, /too close to scan reliably/],
  [{ qrForeground: 'blue' }, /"QR Code Colour" must be a colour written as #/],
  [{ qrSize: '20' }, /"QR Code Size \(Pixels\)" must be a whole number from 64 to 4096; got "20"/],
  [{ qrFormat: 'gif' }, /"QR Code Format" must be one of: PNG, SVG; got "gif"/],
  [{ link: 'spring' }, /"Link" must be a link's ID \(digits, e.g. 1042\) or its full short URL/],
])('%j is refused in the form\'s words before any request', async (values, message) => {
  const client = countingClient();
  requests = 0;
  const error = await runOperation(qrCode, client, { link: '1001', ...values }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as Error).message).toMatch(message);
  expect(requests).toBe(0);
});
