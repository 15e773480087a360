/**
 * Operations that produce files (QR codes, reports) reach the agent as content it can use: a PNG as image
 * content, a CSV as embedded text, anything else as an embedded blob; an operation added to the list is a
 * tool with no line of this package.
 */
import { createMemoryRunCache, type Operation } from '@shortlink/core/operations';
import type { ShortLinkClient } from '@shortlink/core';
import { callTool } from '../src/server';
import { toolOf } from '../src/tools';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const fileMaker: Operation = {
  key: 'qrCode.get',
  resource: 'qrCode',
  action: 'get',
  label: 'Get',
  description: 'Makes files.',
  safety: { readOnly: true, destructive: false, idempotent: true, offline: true },
  fields: [{ key: 'name', label: 'File Name', kind: 'text', required: true, help: 'The name.' }],
  output: { count: 'one', fields: [{ key: 'name', label: 'File Name', type: 'string' }], file: { label: 'Files', per: 'result', mimeTypes: ['image/png', 'text/csv', 'application/pdf'] } },
  sample: { records: [{ name: 'spring' }] },
  async run(_client, form) {
    const name = form.requiredText('name');
    return {
      records: [{ name }],
      files: [
        { fileName: `${name}.png`, mimeType: 'image/png', data: PNG, recordIndex: 0 },
        { fileName: `${name}.csv`, mimeType: 'text/csv', data: new TextEncoder().encode('day,clicks\n2026-11-01,3\n') },
        { fileName: `${name}.pdf`, mimeType: 'application/pdf', data: new Uint8Array([37, 80, 68, 70]) },
      ],
    };
  },
};

// The operations here send nothing: a client whose run scope is itself.
const offlineClient = { within: () => offlineClient } as unknown as ShortLinkClient;
const options = { account: { client: offlineClient, runCache: createMemoryRunCache(), secrets: ['never-shown-key'], keySource: 'server' as const, id: 'test' } };

test('a new operation is a tool named after its resource and label, with its annotations', () => {
  const tool = toolOf(fileMaker);
  expect(tool.name).toBe('qr_code_get');
  expect(tool.title).toBe('QR Code: Get');
  expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
});

test('files become image content, embedded text and an embedded blob', async () => {
  const result = await callTool(toolOf(fileMaker), { name: 'spring' }, options);
  expect(result.isError).toBeUndefined();
  const [text, image, csv, pdf] = result.content;
  expect(text).toMatchObject({ type: 'text' });
  expect(JSON.parse((text as { text: string }).text).files).toEqual([
    { fileName: 'spring.png', mimeType: 'image/png', recordIndex: 0 },
    { fileName: 'spring.csv', mimeType: 'text/csv', recordIndex: null },
    { fileName: 'spring.pdf', mimeType: 'application/pdf', recordIndex: null },
  ]);
  expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: Buffer.from(PNG).toString('base64') });
  expect(csv).toEqual({ type: 'resource', resource: { uri: 'shortlink://files/spring.csv', mimeType: 'text/csv', text: 'day,clicks\n2026-11-01,3\n' } });
  expect(pdf).toEqual({ type: 'resource', resource: { uri: 'shortlink://files/spring.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' } });
});

test('a missing value is a tool error naming the label', async () => {
  const result = await callTool(toolOf(fileMaker), {}, options);
  expect(result.isError).toBe(true);
  expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('"File Name" is required') });
});

test('an unexpected failure says which operation failed and never shows the key', async () => {
  const broken: Operation = { ...fileMaker, async run() { throw new Error('socket closed while sending Bearer never-shown-key'); } };
  const result = await callTool(toolOf(broken), { name: 'x' }, options);
  expect(result.isError).toBe(true);
  const text = (result.content[0] as { text: string }).text;
  expect(text).toMatch(/^Get failed unexpectedly/);
  expect(text).not.toContain('never-shown-key');
});
