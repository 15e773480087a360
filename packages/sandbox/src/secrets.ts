/** Random API keys and slugs, and the one-way hashes the sandbox keeps instead of secrets. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** A new API key; shown once to its owner, only its hash is stored. */
export function newApiKey(): string {
  return `sl_${randomBase62(40)}`;
}

/** Generated slugs: 7 random base62 characters. */
export function newSlug(): string {
  return randomBase62(7);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Salted hash of a link password, as 'salt:hash'. */
export function hashPassword(password: string): string {
  const salt = randomBytes(12).toString('hex');
  return `${salt}:${sha256Hex(salt + password)}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  const candidate = Buffer.from(sha256Hex(salt + password), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
