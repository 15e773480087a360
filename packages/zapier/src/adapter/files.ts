/**
 * Files an operation makes (a QR code, a CSV report) as Zapier's hydrated files: the step returns a small
 * pointer (z.dehydrateFile, at most 12 000 bytes of data), and Zapier calls the hydrator below only when a
 * later step uses the file (an email attachment, a Google Drive upload); it then stashes the bytes with
 * z.stashFile. A QR code travels as its recipe (the short URL and the drawing settings) and is drawn again;
 * another small file travels inline; a larger one is stashed at once.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { makeQrCode } from '@shortlink/core/host';
import type { OperationFile } from '@shortlink/core/operations';

/** Zapier refuses a dehydration payload above 12 000 bytes; base64 of the file plus its names must fit. */
const INLINE_MAX_BYTES = 8_000;

/** What a pointer carries. */
export type FilePointerData = { fileName: string; mimeType: string } & ({ remake: NonNullable<OperationFile['remake']> } | { base64: string });

type Dehydrate = (method: unknown, inputData: FilePointerData) => string;
type StashFile = (data: Buffer, length: number, fileName: string, contentType: string) => Promise<string>;

const stash = (z: ZObject, data: Buffer, fileName: string, mimeType: string): Promise<string> =>
  (z as unknown as { stashFile: StashFile }).stashFile(data, data.length, fileName, mimeType);

/** The bytes a pointer stands for. */
export function fileBytes(data: FilePointerData): Buffer {
  if ('remake' in data) return Buffer.from(makeQrCode(data.remake.text, data.remake.options).data);
  return Buffer.from(data.base64, 'base64');
}

/** Zapier's hydrator: the file's bytes stashed, its URL handed to the step that asked. */
export async function stashedFile(z: ZObject, bundle: Bundle): Promise<string> {
  const data = bundle.inputData as unknown as FilePointerData;
  return stash(z, fileBytes(data), data.fileName, data.mimeType);
}

export const hydrators = { stashedFile };

/** What a step returns in place of a file: a pointer, or for a large file without a recipe its stashed URL. */
export async function fileField(z: ZObject, file: OperationFile): Promise<string> {
  const names = { fileName: file.fileName, mimeType: file.mimeType };
  const dehydrate = (data: FilePointerData) => (z as unknown as { dehydrateFile: Dehydrate }).dehydrateFile(stashedFile, data);
  if (file.remake) return dehydrate({ ...names, remake: file.remake });
  if (file.data.byteLength <= INLINE_MAX_BYTES) return dehydrate({ ...names, base64: Buffer.from(file.data).toString('base64') });
  return stash(z, Buffer.from(file.data), file.fileName, file.mimeType);
}
