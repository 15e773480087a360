/**
 * What the client takes from the OpenAPI document the service serves at /api/v1/openapi.json (spec §9),
 * read only when the list does not page as the client expected (docs/api-contract.md, "The served
 * OpenAPI document"). The document may name the list's query parameters — the cursor, the page size, the
 * "after" id — and the page size's maximum and default. Nothing else in it is used: not its `servers`
 * (requests, and the API key, go only to the base URL the user entered), not its security schemes (the
 * key stays in the Authorization header), not its paths (the client's paths are the spec's).
 */
import { isRecord } from '../basics/json';

type Json = Record<string, unknown>;


export interface ListParameters {
  /** Query parameter of an opaque cursor (`cursor`, `page_token`, `page`…). */
  cursor?: string;
  /** Query parameter of "the page after this id" (`starting_after`, `after`…), for has_more lists. */
  after?: string;
  /** Query parameter of the page size (`limit`, `per_page`, `page_size`…). */
  pageSize?: string;
  /** The page size's declared maximum. */
  maxPageSize?: number;
  /** The page size the service uses when none is sent. */
  defaultPageSize?: number;
}

/** A query parameter name as services write them; anything else in the document is ignored. */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_.\-[\]]{0,63}$/;
const PAGE_SIZE_NAMES = /^(limit|per_?page|perPage|page_?size|pageSize|size|count|max_?results|maxResults|first|take|top)$/i;
const PAGE_SIZE_WORDS = /\b(page size|per page|number of (links|items|results|records))\b/i;
const AFTER_NAMES = /^(starting_?after|startingAfter|after|after_?id|afterId)$/i;
/** Cursor parameters, best first. */
const CURSOR_PATTERNS = [/cursor/i, /token/i, /^(continuation|marker|next|page_?key|pageKey)$/i, /^(page|page_?number|pageNumber|offset|start|from|skip)$/i];

/** A local reference (`#/components/parameters/Limit`) resolved; other references are not followed. */
function resolve(document: Json, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 5 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isRecord(target) ? target[key] : undefined;
    }
    current = target;
  }
  return current;
}

/** The GET operation of the link list: the path `/links` (or the shortest path ending in `/links`). */
function listOperation(document: Json): { pathItem: Json; operation: Json } | undefined {
  const paths = document.paths;
  if (!isRecord(paths)) return undefined;
  const candidates = Object.keys(paths)
    .filter((path) => /\/links\/?$/.test(path) && isRecord(paths[path]) && isRecord((paths[path] as Json).get))
    .sort((a, b) => a.length - b.length);
  const path = candidates[0];
  if (path === undefined) return undefined;
  const pathItem = paths[path] as Json;
  return { pathItem, operation: pathItem.get as Json };
}

interface QueryParameter {
  name: string;
  type: string | undefined;
  description: string;
  schema: Json;
}

function queryParameters(document: Json, pathItem: Json, operation: Json): QueryParameter[] {
  const listed = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
  const out: QueryParameter[] = [];
  for (const entry of listed) {
    const parameter = resolve(document, entry);
    if (!isRecord(parameter) || parameter.in !== 'query' || typeof parameter.name !== 'string' || !PARAMETER_NAME.test(parameter.name)) continue;
    const schema = resolve(document, parameter.schema);
    const typed = isRecord(schema) ? schema : {};
    const type = typeof typed.type === 'string' ? typed.type : Array.isArray(typed.type) ? typed.type.find((t) => t !== 'null') : undefined;
    out.push({ name: parameter.name, type, description: typeof parameter.description === 'string' ? parameter.description : '', schema: typed });
  }
  return out;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** The list's parameters as the document names them; undefined when it describes no link list. */
export function listParametersFrom(document: unknown): ListParameters | undefined {
  if (!isRecord(document)) return undefined;
  const list = listOperation(document);
  if (!list) return undefined;
  const parameters = queryParameters(document, list.pathItem, list.operation);
  const result: ListParameters = {};

  const numeric = (p: QueryParameter) => p.type === 'integer' || p.type === 'number';
  const size = parameters.find((p) => PAGE_SIZE_NAMES.test(p.name) && (p.type === undefined || numeric(p))) ?? parameters.find((p) => numeric(p) && PAGE_SIZE_WORDS.test(p.description));
  if (size) {
    result.pageSize = size.name;
    const maximum = positiveInteger(size.schema.maximum);
    const exclusive = typeof size.schema.exclusiveMaximum === 'number' ? positiveInteger(size.schema.exclusiveMaximum - 1) : undefined;
    const max = maximum ?? exclusive;
    if (max !== undefined) result.maxPageSize = max;
    const fallback = positiveInteger(size.schema.default);
    if (fallback !== undefined) result.defaultPageSize = fallback;
  }
  const rest = parameters.filter((p) => p !== size && p.type !== 'boolean');
  const after = rest.find((p) => AFTER_NAMES.test(p.name));
  if (after) result.after = after.name;
  for (const pattern of CURSOR_PATTERNS) {
    const cursor = rest.find((p) => p !== after && pattern.test(p.name));
    if (cursor) {
      result.cursor = cursor.name;
      break;
    }
  }
  // A list paged only by an "after" id names no other cursor: that parameter is its cursor too.
  if (result.cursor === undefined && after) result.cursor = after.name;
  return result;
}
