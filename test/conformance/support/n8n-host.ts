/**
 * The built n8n node (dist/) through the test harness's execute context (packages/n8n-nodes-shortlink/
 * test/harness.ts). The case's values become node parameters by reading the node's own description: a
 * main field by its name, a UTM field inside the "UTM Parameters" collection, an option inside the
 * operation's options collection, a Link or Domain as a resource locator. The n8n formatting step undone:
 * each item's json is one record.
 */
import type { INodeExecutionData, INodeParameters, INodeProperties, NodeExecutionHint } from 'n8n-workflow';
import { exposureOf, isOffered, type N8nExposure } from '@shortlink/core/host';
import { operationByKey } from '@shortlink/core/operations';
import { ShortLink, runNode } from '../../../packages/n8n-nodes-shortlink/test/harness';
import type { Fixture } from './fixtures';
import { fileOutcome, messageOf, type FileOutcome, type Outcome, type Shown } from './outcome';

/** The node whose description the mapping reads and which runs the cases: the built one, unless the recipe test sets its own. */
let nodeType = new ShortLink();
let description = nodeType.description;

/** Runs the table on another build of the node (the recipe test: the node from its sources with one more operation). */
export function useN8nNode(node: InstanceType<typeof ShortLink>): void {
  nodeType = node;
  description = node.description;
}

function shownFor(property: INodeProperties, resource: string, action: string): boolean {
  const show = property.displayOptions?.show;
  if (!show) return true;
  const resources = show.resource as string[] | undefined;
  const operations = show.operation as string[] | undefined;
  return (!resources || resources.includes(resource)) && (!operations || operations.includes(action));
}

function utmName(key: string): string {
  const rest = key.replace(/^utm/, '');
  return rest.charAt(0).toLowerCase() + rest.slice(1);
}

function locatorValue(property: { type?: string; name: string }, value: unknown): unknown {
  if (property.type !== 'resourceLocator') return value;
  const text = String(value);
  const mode = property.name === 'domain' ? 'hostname' : /^https?:\/\//i.test(text) ? 'url' : 'id';
  return { __rl: true, mode, value: text };
}

/** Where the core's exposure table puts the operation on n8n (undefined: not offered on purpose). */
export function n8nPlace(operationKey: string): N8nExposure | undefined {
  const exposure = exposureOf(operationByKey(operationKey)).n8n;
  return isOffered(exposure) ? exposure : undefined;
}

/** Whether the node offers the operation where the exposure table says (its Resource and Operation dropdowns list it). */
export function n8nOffers(operationKey: string): boolean {
  const place = n8nPlace(operationKey);
  if (!place) return false;
  const resource = description.properties.find((property) => property.name === 'resource');
  const resources = (resource?.options ?? []) as Array<{ value?: unknown }>;
  if (!resources.some((option) => option.value === place.resource)) return false;
  return description.properties.some(
    (property) => property.name === 'operation' &&
      ((property.options ?? []) as Array<{ value?: unknown }>).some((option) => option.value === place.operation) &&
      ((property.displayOptions?.show?.resource as string[] | undefined) ?? []).includes(place.resource),
  );
}

/**
 * n8n-only choices the case's values imply: Find's "Find By" is Slug when only a slug is given (n8n's
 * form shows one search at a time; the core takes whichever is filled).
 */
function hostChoices(operationKey: string, values: Record<string, unknown>): Record<string, unknown> {
  if (operationKey === 'link.find') return { findBy: values.targetUrl === undefined && values.slug !== undefined ? 'slug' : 'targetUrl' };
  return {};
}

/** The node parameters that carry the case's values (keys the node has no field for are left out, as the core ignores them). */
export function n8nParameters(operationKey: string, values: Record<string, unknown>): INodeParameters {
  const place = n8nPlace(operationKey)!;
  const parameters: Record<string, unknown> = { resource: place.resource, operation: place.operation, ...hostChoices(operationKey, values) };
  const shown = description.properties.filter((property) => shownFor(property, place.resource, place.operation));
  for (const [key, value] of Object.entries(values)) {
    const top = shown.find((property) => property.name === key && property.type !== 'collection');
    if (top) {
      parameters[key] = locatorValue(top, value);
      continue;
    }
    for (const collection of shown.filter((property) => property.type === 'collection')) {
      const option = (collection.options as INodeProperties[] | undefined)?.find((entry) => entry.name === key || (collection.name === 'utm' && entry.name === utmName(key)));
      if (option) {
        parameters[collection.name] = { ...(parameters[collection.name] as object | undefined), [option.name]: locatorValue(option, value) };
        break;
      }
    }
  }
  return parameters as INodeParameters;
}

/**
 * The n8n formatting step undone (packages/n8n-nodes-shortlink/nodes/shared/output.ts): one record per item,
 * files from the items' binary data, a file of the whole result (a CSV report) as the one more item that
 * carries the summary and the file's name, the notices from the execution hints.
 */
export function shownByN8n(items: INodeExecutionData[], hints: NodeExecutionHint[]): Shown {
  const files: FileOutcome[] = [];
  const records: Array<Record<string, unknown>> = [];
  let summary: Record<string, unknown> | undefined;
  for (const item of items) {
    for (const binary of Object.values(item.binary ?? {})) files.push(fileOutcome(binary.mimeType, Buffer.from(binary.data, 'base64')));
    const { fileName, ...rest } = item.json as Record<string, unknown>;
    if (item.binary && typeof fileName === 'string' && item === items[items.length - 1] && !('qrCodeFileName' in rest)) summary = rest;
    else records.push(item.json as Record<string, unknown>);
  }
  return { records, ...(summary ? { summary } : {}), notices: hints.map((hint) => hint.message), files };
}

export async function runN8n(operationKey: string, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const hints: NodeExecutionHint[] = [];
  try {
    const items = await runNode({ credentials: { baseUrl: fixture.baseUrl, apiKey: fixture.apiKey }, parameters: n8nParameters(operationKey, values), timezone: timeZone, hints, nodeType });
    return shownByN8n(items, hints);
  } catch (error) {
    // Only the core's own flag is compared (Zapier's searches answer "nothing found"); n8n's message must carry the core's.
    return { error: messageOf(error), notFound: false };
  }
}
