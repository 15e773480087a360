/**
 * The per-request marker (ClientOptions.markCreates): a slug this client chooses when the user left it
 * empty. 62^10 values, so a link carrying it was made by this request and no other — the only evidence that
 * tells a lost create from another caller's create of the same target in the same second, whatever the clocks.
 * Uniqueness, not secrecy, is asked of it: the client's random source is enough (the portable core reaches no
 * crypto module).
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const MARKER_SLUG_LENGTH = 10;

export function randomSlug(random: () => number): string {
  let slug = '';
  for (let i = 0; i < MARKER_SLUG_LENGTH; i++) slug += ALPHABET[Math.floor(random() * ALPHABET.length) % ALPHABET.length];
  return slug;
}
