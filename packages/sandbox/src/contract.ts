/**
 * The OpenAPI document, loaded once, and request validators compiled from its own schemas.
 * There is no second copy of the rules: every check below points into the document.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const OPENAPI_PATH = resolve(__dirname, '../../../openapi/short-link-api.yaml');
const DOCUMENT_ID = 'https://shortlink.example/openapi.json';

export interface FieldError {
  field: string;
  message: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type OpenApiDocument = Record<string, any>;

let loaded: { document: OpenApiDocument; json: string; ajv: Ajv2020; coercingAjv: Ajv2020 } | undefined;

function load() {
  if (loaded) return loaded;
  const document = parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
  const json = JSON.stringify(document);
  // strict: false because the document carries OpenAPI keywords (example, x-assumption) ajv does not know.
  const make = (coerceTypes: boolean) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, useDefaults: coerceTypes });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(document), $id: DOCUMENT_ID });
    return ajv;
  };
  loaded = { document, json, ajv: make(false), coercingAjv: make(true) };
  return loaded;
}

/** The document as parsed from the YAML (do not mutate). */
export function openApiDocument(): OpenApiDocument {
  return load().document;
}

/** The document serialised once, served at /api/v1/openapi.json. */
export function openApiJson(): string {
  return load().json;
}

const validators = new Map<string, ValidateFunction>();

/** Validator for a JSON pointer into the document, e.g. '/components/schemas/CreateLinkRequest'. */
export function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = load().ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new Error(`No schema at ${pointer} in the OpenAPI document`);
    validators.set(pointer, validate);
  }
  return validate;
}

/** Validator of a body schema from components/schemas. */
export function schemaValidator(name: string): ValidateFunction {
  return validatorAt(`/components/schemas/${name}`);
}

/**
 * Validator for the query string of an operation, built from the operation's own `in: query`
 * parameters. Coerces text to the declared types and applies defaults (e.g. limit = 20).
 */
export function queryValidator(path: string, method: string): ValidateFunction {
  const cacheKey = `query ${method} ${path}`;
  let validate = validators.get(cacheKey);
  if (!validate) {
    const operation = load().document.paths[path][method];
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const parameter of operation.parameters ?? []) {
      const resolved = parameter.$ref ? resolvePointer(parameter.$ref) : parameter;
      if (resolved.in !== 'query') continue;
      // The parameter's own schema, inlined so that its default applies.
      properties[resolved.name] = structuredClone(resolved.schema);
      if (resolved.required) required.push(resolved.name);
    }
    validate = load().coercingAjv.compile({ type: 'object', properties, required });
    validators.set(cacheKey, validate);
  }
  return validate;
}

function pointerOf(ref: string): string {
  if (!ref.startsWith('#')) throw new Error(`Only local references are supported: ${ref}`);
  return ref.slice(1);
}

function resolvePointer(ref: string): OpenApiDocument {
  let node: OpenApiDocument = load().document;
  for (const part of pointerOf(ref).split('/').slice(1)) {
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** ajv's errors as one `{field, message}` per field, the message naming the field. */
export function fieldErrors(errors: ErrorObject[] | null | undefined, rootName = 'body'): FieldError[] {
  const byField = new Map<string, string>();
  for (const error of errors ?? []) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    let field = path || rootName;
    let message: string;
    if (error.keyword === 'required') {
      field = path ? `${path}.${error.params.missingProperty}` : error.params.missingProperty;
      message = `${field} is required.`;
    } else if (error.keyword === 'additionalProperties') {
      field = path ? `${path}.${error.params.additionalProperty}` : error.params.additionalProperty;
      message = `${field} is not a known field.`;
    } else if (error.keyword === 'minProperties' && !path) {
      message = `The ${rootName} must contain at least one field.`;
    } else if (error.keyword === 'oneOf' || error.keyword === 'anyOf') {
      continue; // the branch errors already say what is wrong
    } else {
      message = `${field} ${error.message ?? 'is invalid'}.`;
    }
    if (!byField.has(field)) byField.set(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}
