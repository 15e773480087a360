/**
 * An operation's result as an MCP tool result: the records and the summary as JSON text (what every
 * client shows to the model) and as structured content; files as an image (PNG, JPEG, …) or as an
 * embedded resource (an SVG QR code or a CSV report as text, anything else as base64).
 */
import type { OperationFile, OperationResult } from '@shortlink/core/operations';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Content = CallToolResult['content'][number];

const TEXT_TYPES = /^text\/|^application\/(json|xml|csv)|\+json$|\+xml$/i;
/** What MCP clients show as an image; SVG is text (a vector a client may not render) and goes as a resource. */
const RASTER_IMAGES = /^image\/(png|jpeg|gif|webp)$/i;

function base64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

export function fileContent(file: OperationFile): Content {
  if (RASTER_IMAGES.test(file.mimeType)) {
    return { type: 'image', data: base64(file.data), mimeType: file.mimeType };
  }
  const uri = `shortlink://files/${encodeURIComponent(file.fileName)}`;
  if (TEXT_TYPES.test(file.mimeType)) {
    return { type: 'resource', resource: { uri, mimeType: file.mimeType, text: new TextDecoder().decode(file.data) } };
  }
  return { type: 'resource', resource: { uri, mimeType: file.mimeType, blob: base64(file.data) } };
}

export function toolResultOf(result: OperationResult): CallToolResult {
  const structured: Record<string, unknown> = { records: result.records };
  if (result.summary) structured.summary = result.summary;
  const files = result.files ?? [];
  if (files.length > 0) structured.files = files.map(({ fileName, mimeType, recordIndex }) => ({ fileName, mimeType, recordIndex: recordIndex ?? null }));
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }, ...files.map(fileContent)],
    structuredContent: structured,
  };
}
