/**
 * 64 bits of FNV-1a (two 32-bit lanes with different offsets) as 16 hex digits: a short, stable
 * fingerprint for noticing that a text changed (a credential, a sheet's rows). Not a secret store and not a
 * MAC: it tells changes apart by chance of one in 2^64, and proves nothing against someone who wants a
 * collision.
 */
export function fingerprint64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
    b = (b ^ (b >>> 13)) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}
