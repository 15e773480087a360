/**
 * One link as the index keeps it: what the lookups compare (id, slug, domain, a fingerprint of the target
 * URL's comparable form, the state flags, createdAt) and, when it was read in this run, the whole record.
 * Entries loaded from a stored snapshot (Zapier's cache) have no record: a hit on one is confirmed by a GET.
 */
import { credentialFingerprint } from '../polls/state-owner';
import { domainKey, targetKey } from './same-link';
import { shortUrlKey } from './short-url';
import type { Link, LinkCreated } from '../types';

export interface IndexEntry {
  id: string;
  slug: string;
  /** Lower-case custom domain, or null for the default domain. */
  domain: string | null;
  /** Fingerprint of targetKey(targetUrl); '' when the target is unreadable. */
  target: string;
  /** Fingerprint of shortUrlKey(shortUrl); '' when unreadable. */
  short: string;
  active: boolean;
  blocked: boolean;
  expiresAt: string | null;
  /** createdAt as epoch ms (0 when unreadable): the newest same link is the answer. */
  at: number;
  /** The whole record, when read (or created) in this run. */
  link?: Link;
}

/** A short, fixed-size fingerprint: collisions only cost a confirming GET, never a wrong answer. */
export function targetFingerprint(url: unknown): string {
  if (typeof url !== 'string') return '';
  const key = targetKey(url);
  return key === undefined ? '' : credentialFingerprint(key).slice(4);
}

/** The same for a short URL's identifying part (shortUrlKey: host and path). */
export function shortFingerprint(url: unknown): string {
  const key = typeof url === 'string' ? shortUrlKey(url) : undefined;
  return key === undefined ? '' : keyFingerprint(key);
}

export function keyFingerprint(key: string): string {
  return credentialFingerprint(key).slice(4);
}

export function slugKey(domain: string | null, slug: string): string {
  return `${domain ?? ''}|${slug}`;
}

/** An entry from a record of the list or GET (12 fields) or of a creation (9; the rest as a new link has them). */
export function entryOf(record: Link | LinkCreated): IndexEntry {
  const link = record as Partial<Link> & LinkCreated;
  const at = typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN;
  return {
    id: String(link.id),
    slug: typeof link.slug === 'string' ? link.slug : '',
    domain: domainKey(link.domain),
    target: targetFingerprint(link.targetUrl),
    short: shortFingerprint(link.shortUrl),
    active: link.active !== false,
    blocked: link.blocked === true,
    expiresAt: typeof link.expiresAt === 'string' && link.expiresAt !== '' ? link.expiresAt : null,
    at: Number.isFinite(at) ? at : 0,
    link: record as Link,
  };
}

// Stored form: one line per entry, tab-separated; slug and domain escaped so that no tab or newline breaks it.
const escape = (text: string): string => text.replace(/[%\t\n]/g, (c) => encodeURIComponent(c));
const unescape = (text: string): string => text.replace(/%(25|09|0A)/gi, (c) => decodeURIComponent(c));

export function entryLine(entry: IndexEntry): string {
  const flags = (entry.active ? 1 : 0) | (entry.blocked ? 2 : 0);
  return [escape(entry.id), escape(entry.slug), escape(entry.domain ?? ''), entry.target, entry.short, flags, entry.expiresAt ?? '', entry.at.toString(36)].join('\t');
}

export function entryFromLine(line: string): IndexEntry | undefined {
  const parts = line.split('\t');
  if (parts.length !== 8) return undefined;
  const [id, slug, domain, target, short, flags, expiresAt, at] = parts as [string, string, string, string, string, string, string, string];
  const bits = Number(flags);
  const when = parseInt(at, 36);
  if (id === '' || !Number.isInteger(bits)) return undefined;
  return {
    id: unescape(id),
    slug: unescape(slug),
    domain: domain === '' ? null : unescape(domain),
    target,
    short,
    active: (bits & 1) === 1,
    blocked: (bits & 2) === 2,
    expiresAt: expiresAt === '' ? null : expiresAt,
    at: Number.isFinite(when) ? when : 0,
  };
}
