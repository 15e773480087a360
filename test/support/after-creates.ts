/**
 * A client that does something after each of its Find or Create calls (a stop, a clock jump): for tests
 * of runs that end part way. Scoped clients (`within`, which runOperation uses for a run's signal and
 * deadline) keep the hook.
 */
import type { ShortLinkClient } from '@shortlink/core';

export function afterCreates(client: ShortLinkClient, after: (count: number) => void): ShortLinkClient {
  let count = 0;
  const wrap = (inner: ShortLinkClient): ShortLinkClient => ({
    ...inner,
    findOrCreateLink: async (...args) => {
      const made = await inner.findOrCreateLink(...args);
      after(++count);
      return made;
    },
    within: (scope) => wrap(inner.within(scope)),
  });
  return wrap(client);
}
