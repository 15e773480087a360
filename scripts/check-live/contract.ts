/**
 * Compares one live answer with what openapi/short-link-api.yaml (and so docs/api-contract.md) says
 * the operation answers: the status, the content type, the body schema and the required headers.
 * Returns the differences as text instead of throwing, so that one run reports all of them.
 */
import { ajv, at, deref, DOCUMENT_ID, escapePointer, type Json } from '../../openapi/document';

export { documentPath as DOCUMENT_PATH } from '../../openapi/document';

export interface LiveAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** What a difference says: the expectation (and where the document states it) and what came back. */
export interface Difference {
  check: string;
  expected: string;
  actual: string;
}

function short(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export interface Expectation {
  /** Document path, e.g. '/links/{id}'. */
  path: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** The status this request must get. */
  status: number;
}

/**
 * The differences between `answer` and the document's answer for `expected.status`; the parsed body
 * (when JSON) comes back too, for checks beyond the schema.
 */
export function compareWithDocument(label: string, expected: Expectation, answer: LiveAnswer): { differences: Difference[]; body: Json } {
  const differences: Difference[] = [];
  const operationPointer = `/paths/${escapePointer(expected.path)}/${expected.method}`;
  const operationId = at(`${operationPointer}/operationId`) as string;
  const where = `${operationId} (${expected.method.toUpperCase()} ${expected.path})`;
  let body: Json;
  try {
    body = answer.text === '' ? undefined : JSON.parse(answer.text);
  } catch {
    body = undefined;
  }

  if (answer.status !== expected.status) {
    const problem = body && typeof body === 'object' ? ` ${short(String(body.detail ?? body.title ?? ''))}` : ` ${short(answer.text, 80)}`;
    differences.push({ check: `${label}: status`, expected: `${expected.status} (${where})`, actual: `${answer.status}${problem}` });
    return { differences, body };
  }
  const responses = at(`${operationPointer}/responses`);
  const key = String(answer.status) in responses ? String(answer.status) : `${String(answer.status)[0]}XX`;
  const responsePointer = deref(`${operationPointer}/responses/${key}`);
  const response = at(responsePointer);

  for (const name of Object.keys(response.headers ?? {})) {
    const headerPointer = deref(`${responsePointer}/headers/${escapePointer(name)}`);
    if (!at(headerPointer).required) continue;
    const value = answer.headers.get(name);
    if (value === null) {
      differences.push({ check: `${label}: header ${name}`, expected: `present (components.headers.${name})`, actual: 'missing' });
      continue;
    }
    const validate = ajv.getSchema(`${DOCUMENT_ID}#${headerPointer}/schema`)!;
    const typed = at(`${headerPointer}/schema`).type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!validate(typed)) differences.push({ check: `${label}: header ${name}`, expected: ajv.errorsText(validate.errors, { dataVar: name }), actual: value });
  }

  const content = response.content as Record<string, Json> | undefined;
  if (!content) {
    if (answer.text !== '') differences.push({ check: `${label}: body`, expected: `empty (${where} ${answer.status})`, actual: short(answer.text) });
    return { differences, body };
  }
  const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(mediaType in content)) {
    differences.push({ check: `${label}: content type`, expected: Object.keys(content).join(' or '), actual: mediaType || '(none)' });
    return { differences, body };
  }
  if (body === undefined) {
    differences.push({ check: `${label}: body`, expected: 'JSON', actual: short(answer.text) || '(empty)' });
    return { differences, body };
  }
  const validate = ajv.getSchema(`${DOCUMENT_ID}#${responsePointer}/content/${escapePointer(mediaType)}/schema`)!;
  if (!validate(body)) {
    for (const error of validate.errors ?? []) {
      // oneOf/anyOf summaries repeat what their branches said.
      if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
      const extra = error.keyword === 'additionalProperties' ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"` : '';
      differences.push({
        check: `${label}: body${error.instancePath || ''}`,
        expected: `${error.message}${extra} (${error.schemaPath.replace(/^.*#/, '')})`,
        actual: short(JSON.stringify(valueAt(body, error.instancePath)) ?? 'undefined'),
      });
    }
  }
  return { differences, body };
}

function valueAt(body: Json, instancePath: string): Json {
  return instancePath
    .split('/')
    .slice(1)
    .reduce((node: Json, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], body);
}
