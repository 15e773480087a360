/**
 * Counting what an integration spends: the sandbox records every request it receives, so a figure takes a
 * mark before a step and counts the API requests (optionally only those of one path) after it.
 */
import type { Sandbox } from '@shortlink/sandbox';

export interface RequestMark {
  readonly index: number;
}

export function markRequests(sandbox: Sandbox): RequestMark {
  return { index: sandbox.requests.length };
}

/** API requests since the mark whose method and raw path match (path: exact, e.g. '/api/v1/links'). */
export function requestsSince(sandbox: Sandbox, mark: RequestMark, filter: { method?: string; path?: string } = {}): number {
  let count = 0;
  for (let i = mark.index; i < sandbox.requests.length; i++) {
    const request = sandbox.requests[i]!;
    if (filter.method !== undefined && request.method !== filter.method) continue;
    if (filter.path !== undefined && request.path !== filter.path) continue;
    count++;
  }
  return count;
}
