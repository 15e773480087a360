/**
 * The run cache of a Zapier step: the connection's z.cache ('auth' scope; the key also names the service's
 * address and the API key's fingerprint, so a state is never read by another account even where the scope
 * is not kept apart, as in createAppTester's stand-in). Each step is its own invocation, so this is how what one
 * step learns for an operation reaches the next steps of the connection: a plan-quota refusal, for one, so
 * that the rows after it are told at once instead of each sending a create the service will refuse.
 * Best effort: a cache that fails only means the step starts knowing nothing, as it would without it.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { credentialFingerprint } from '@shortlink/core/host';
import type { RunCache } from '@shortlink/core/operations';
import { scopedCache, serviceAddressOf } from '../connectionCache';

function keyPrefix(bundle: Bundle): string {
  const base = serviceAddressOf(bundle);
  const apiKey = String(bundle.authData?.apiKey ?? '').trim();
  return `run:v1:${credentialFingerprint(`${base} ${apiKey}`).slice(4)}:`;
}

export function connectionRunCache(z: ZObject, bundle: Bundle): RunCache {
  const cache = scopedCache(z);
  const prefix = keyPrefix(bundle);
  return {
    async get(key) {
      try {
        return (await cache?.get(prefix + key, ['auth'])) ?? undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlSeconds) {
      try {
        await cache?.set(prefix + key, value, ttlSeconds, ['auth']);
      } catch {
        // not kept: the next step starts knowing nothing
      }
    },
  };
}
