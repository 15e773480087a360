/**
 * Test helper: checks real HTTP answers against the OpenAPI document, read straight from the YAML
 * (independently of the sandbox's own loader). Records which (operation, status) pairs were seen.
 */
import { ajv, at, deref, document, DOCUMENT_ID, escapePointer, type Json } from '../../openapi/document';

export { document, documentPath, type Json } from '../../openapi/document';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface OperationRef {
  path: string; // document path, e.g. '/links/{id}'
  method: 'get' | 'post' | 'patch' | 'delete';
}

export function operationId(operation: OperationRef): string {
  return at(`/paths/${escapePointer(operation.path)}/${operation.method}/operationId`);
}

/** Every (operationId, status key) pair the document declares. */
export function documentedResponses(): string[] {
  const pairs: string[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      if (!item[method]) continue;
      for (const status of Object.keys(item[method].responses)) pairs.push(`${operationId({ path, method })} ${status}`);
    }
  }
  return pairs.sort();
}

export const exercised = new Set<string>();

/**
 * Asserts that the answer is one the document declares for the operation: a documented status
 * (or its NXX range), the documented content type and body schema, and every required header
 * (RateLimit-*, Retry-After on 429) with a value matching its schema. Returns the parsed body.
 */
export function expectDocumented(operation: OperationRef, answer: Answer): Json {
  const operationPointer = `/paths/${escapePointer(operation.path)}/${operation.method}`;
  const responses = at(`${operationPointer}/responses`);
  const key = String(answer.status) in responses ? String(answer.status) : `${String(answer.status)[0]}XX`;
  if (!(key in responses)) {
    throw new Error(`${operationId(operation)} answered ${answer.status}, which the document does not declare: ${answer.text.slice(0, 300)}`);
  }
  exercised.add(`${operationId(operation)} ${key}`);
  const responsePointer = deref(`${operationPointer}/responses/${key}`);
  const response = at(responsePointer);

  for (const name of Object.keys(response.headers ?? {})) {
    const headerPointer = deref(`${responsePointer}/headers/${escapePointer(name)}`);
    if (!at(headerPointer).required) continue;
    const value = answer.headers.get(name);
    if (value === null) throw new Error(`${operationId(operation)} ${answer.status}: header ${name} is missing`);
    const validate = ajv.getSchema(`${DOCUMENT_ID}#${headerPointer}/schema`)!;
    const typed = at(`${headerPointer}/schema`).type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!validate(typed)) {
      throw new Error(`${operationId(operation)} ${answer.status}: header ${name}=${value} ${ajv.errorsText(validate.errors)}`);
    }
  }

  const content = response.content as Record<string, Json> | undefined;
  if (!content) {
    if (answer.text !== '') throw new Error(`${operationId(operation)} ${answer.status} must have an empty body`);
    return undefined;
  }
  const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content)) {
    throw new Error(`${operationId(operation)} ${answer.status}: content type ${mediaType} is not one of ${Object.keys(content).join(', ')}`);
  }
  const body = JSON.parse(answer.text);
  const validate = ajv.getSchema(`${DOCUMENT_ID}#${responsePointer}/content/${escapePointer(mediaType)}/schema`)!;
  if (!validate(body)) {
    throw new Error(`${operationId(operation)} ${answer.status}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 500)}`);
  }
  return body;
}
