import type { Bundle } from 'zapier-platform-core';
import { readExpiry } from '@shortlink/core/portable';
import { optionalString } from '../inputs';

/**
 * Expires At as the service takes it, or undefined when left empty. Zapier sends what it could read as
 * ISO 8601 (with the user's offset) and passes anything else through as typed: that is refused with the
 * field's label (never read as "now"), and so is a time that has passed. A time without a zone is read in
 * the time zone of the user's Zapier account.
 */
export function readExpiresAt(bundle: Bundle, key = 'expiresAt'): string | undefined {
  const value = optionalString(bundle.inputData, key);
  if (value === undefined) return undefined;
  const timeZone = (bundle.meta as { timezone?: string | null } | undefined)?.timezone || 'UTC';
  return readExpiry(value, { field: 'Expires At', timeZone, now: Date.now() });
}
