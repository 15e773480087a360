/**
 * The sentences hosts show around an operation, generated from what it declares, so they cannot drift:
 * whether repeating it is safe (from its safety), the description each host shows, the line for agents,
 * and the labels errors name fields by.
 */
import { COMMON_FIELD_LABELS, type FieldLabels } from '../forms/form-words';
import type { FormField } from '../forms/form-fields';
import { exposureOf, isOffered, type ZapierStep } from './exposure';
import type { Operation } from './operation';

export type HostName = 'n8n' | 'zapier' | 'mcp';

/** What an operation is called on a host: n8n's label, Zapier's step (or search-or-create) label, MCP's tool. */
export function nameOn(host: HostName, operation: Operation): string {
  const exposure = exposureOf(operation);
  if (host === 'zapier' && isOffered(exposure.zapier)) {
    const step = exposure.zapier[0]!;
    return step.searchOrCreate?.label ?? step.label;
  }
  if (host === 'mcp' && isOffered(exposure.mcp)) return exposure.mcp.tool;
  return operation.label;
}

/** `{link.findOrCreate}` → the name of that operation on the host. */
function withNames(text: string, host: HostName, operations: readonly Operation[]): string {
  return text.replace(/\{([a-zA-Z]+\.[a-zA-Z]+)\}/g, (all, key: string) => {
    const operation = operations.find((candidate) => candidate.key === key);
    return operation ? nameOn(host, operation) : all;
  });
}

/** Whether repeating it is safe, in one sentence: "Changes nothing, so it is safe to repeat." */
export function repeatSentence(operation: Operation, host: HostName, operations: readonly Operation[]): string {
  const { readOnly, idempotent, offline, repeat } = operation.safety;
  if (readOnly) return offline ? 'Sends nothing and changes nothing, so it is safe to repeat.' : 'Changes nothing, so it is safe to repeat.';
  const why = repeat === undefined ? undefined : withNames(repeat, host, operations);
  if (idempotent) return why ? `Safe to repeat: ${why}.` : 'Safe to repeat with the same values.';
  return `Not safe to repeat: ${why ?? 'every run changes the account again'}.`;
}

/** The first sentence of a text, without its full stop (n8n's dropdown lines). */
export function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end);
}

/** The description of a Zapier step: what it does, whether repeating it is safe, what it returns (REVIEW.md). */
export function zapierDescription(operation: Operation, step: ZapierStep, operations: readonly Operation[]): string {
  return [step.description ?? operation.description, repeatSentence(operation, 'zapier', operations), step.returns ?? operation.returns].filter(Boolean).join(' ');
}

/** The description of an MCP tool: what it does, whether repeating it is safe, what it returns. */
export function agentDescription(operation: Operation, operations: readonly Operation[]): string {
  return [operation.description, repeatSentence(operation, 'mcp', operations), operation.returns].filter(Boolean).join(' ');
}

/**
 * One paragraph for an agent choosing among the operations of a host (n8n's tool variant): which write,
 * which are safe to repeat and why, which only read.
 */
export function agentSummary(operations: readonly Operation[], host: HostName, nameOf: (operation: Operation) => string = (operation) => nameOn(host, operation)): string {
  const writes = operations.filter((operation) => !operation.safety.readOnly);
  const reads = operations.filter((operation) => operation.safety.readOnly);
  const sentences = writes.map((operation) => {
    const { idempotent, repeat } = operation.safety;
    const why = repeat === undefined ? '' : `: ${withNames(repeat, host, operations)}`;
    return `${nameOf(operation)} ${idempotent ? 'is safe to repeat' : 'is not safe to repeat'}${why}.`;
  });
  const names = reads.map(nameOf);
  const readList = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join('');
  return [...sentences, readList ? `${readList} only read.` : ''].filter(Boolean).join(' ');
}

/**
 * The labels errors name fields by, the same on every host: the form's own labels, and for the API's names
 * of the link's and the connection's fields the labels of the fields people fill (a short URL is typed
 * into the Link field; an update's changes are the fields to update).
 */
export function errorLabels(fields: readonly FormField[] = []): FieldLabels {
  const labels: Record<string, string> = { ...COMMON_FIELD_LABELS, shortUrl: 'Link', patch: 'the fields to update' };
  for (const field of fields) labels[field.key] = field.label;
  return labels;
}
