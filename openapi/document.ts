/**
 * The OpenAPI document read straight from the YAML, with an ajv instance holding it and JSON-pointer
 * helpers. Shared by the contract tests (test/contract) and the live check (scripts/check-live), which
 * judge answers against the document; the sandbox keeps a loader of its own so that the contract tests
 * do not check the sandbox with the sandbox's own reading of the document.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const documentPath = resolve(__dirname, 'short-link-api.yaml');
export const document: Json = parse(readFileSync(documentPath, 'utf8'));
export const DOCUMENT_ID = 'https://shortlink.example/openapi.json';

/** ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) with the whole document added under DOCUMENT_ID. */
export const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...structuredClone(document), $id: DOCUMENT_ID });

export const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node at a JSON pointer into the document, e.g. '/paths/~1links/get'. */
export function at(pointer: string): Json {
  return pointer
    .split('/')
    .slice(1)
    .reduce((node: Json, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** Follows an OpenAPI $ref (responses, headers) and returns the pointer of the target. */
export function deref(pointer: string): string {
  const node = at(pointer);
  return node && typeof node.$ref === 'string' ? node.$ref.slice(1) : pointer;
}
