/**
 * Adds UTM parameters to a URL (WHATWG URL). The existing query is kept byte for byte except the utm_*
 * parameters being set, which are replaced (case-insensitively, so no duplicates); the fragment stays.
 */
import { InputError } from '../errors';
import { checkWellFormed } from './input-checks';
import type { CampaignParameters } from '../types';

const UTM_KEYS: ReadonlyArray<keyof CampaignParameters> = ['source', 'medium', 'campaign', 'term', 'content'];

function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

export function buildCampaignUrl(url: string, utm: CampaignParameters): string {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new InputError('url', 'url is required: an absolute URL such as https://example.org/page.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new InputError('url', `url must be an absolute URL such as https://example.org/page; got "${url.trim().slice(0, 80)}".`);
  }
  // Campaign parameters belong on web pages: a javascript:, data: or file: URL (or any other scheme) with UTM
  // appended is no campaign link, and a short link to it would be refused or harmful.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError('url', `url must be a web address (http:// or https://); a ${parsed.protocol} URL cannot carry campaign parameters.`);
  }
  const additions: string[] = [];
  const replaced = new Set<string>();
  for (const key of UTM_KEYS) {
    const value = utm?.[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw new InputError(`utm.${key}`, `utm.${key} must be text; got ${typeof value}.`);
    }
    const trimmed = checkWellFormed(value.trim(), `utm.${key}`);
    if (trimmed === '') continue;
    replaced.add(`utm_${key}`);
    additions.push(`utm_${key}=${encodeURIComponent(trimmed)}`);
  }
  if (additions.length === 0) return parsed.href;

  const kept = parsed.search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !replaced.has(decodeKey(pair.split('=')[0]!).toLowerCase()));
  parsed.search = `?${[...kept, ...additions].join('&')}`;
  return parsed.href;
}
