import { createHash } from 'node:crypto';

/**
 * What a host gave for one case, in the core's terms after the host's one formatting step is undone
 * (docs/architecture.md, "Host formatting steps"), and normalized so that runs on different sandboxes compare.
 */
export type Outcome = Shown | { error: string; notFound: boolean; parts?: string[] };

/** A file as every host can compare it: its type and its bytes' hash (a host's name for it may differ). */
export interface FileOutcome {
  mimeType: string;
  sha256: string;
}

/**
 * What a host showed: the records always; the summary, the notices and the files where the host shows
 * them (absent: the host has no place for them, so there is nothing to compare).
 */
export interface Shown {
  records: Array<Record<string, unknown>>;
  summary?: Record<string, unknown>;
  notices?: string[];
  files?: FileOutcome[];
}

export function fileOutcome(mimeType: string, data: Uint8Array): FileOutcome {
  return { mimeType, sha256: createHash('sha256').update(data).digest('hex') };
}

/** A slug nobody typed: the service's random one (7 letters and digits) or the client's marker (10). */
const AUTO_SLUG = /^(?:[A-Za-z0-9]{7}|[A-Za-z0-9]{10})$/;

function walk(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((entry) => walk(entry, replace));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, walk(entry, replace)]));
  return value;
}

/** A review token's time of reading (Find or Create Many's preview): "slr1-4-mx180d58-…" → "slr1-4-<time>-…". */
const REVIEW_TOKEN_TIME = /\b(slr1-\d+-)[0-9a-z]+(?=-)/g;

/** The sandbox's address becomes "<base>", a slug the service picked at random "<auto>", a review token's time "<time>". */
export function normalize(outcome: Outcome, baseUrl: string, typedSlug: unknown): Outcome {
  if ('error' in outcome) {
    const local = (text: string) => text.split(baseUrl).join('<base>');
    return { error: local(outcome.error), notFound: outcome.notFound, ...(outcome.parts ? { parts: outcome.parts.map(local) } : {}) };
  }
  // A slug is a record's own, or the end of its short URL (trigger records without a slug field).
  const slugs = outcome.records.flatMap((record) => [record.slug, typeof record.shortUrl === 'string' ? record.shortUrl.split('/').pop() : undefined]);
  const auto = [...new Set(slugs)].filter((slug): slug is string => typeof slug === 'string' && AUTO_SLUG.test(slug) && slug !== typedSlug);
  const replace = (text: string) => auto.reduce((current, slug) => current.split(slug).join('<auto>'), text.split(baseUrl).join('<base>')).replace(REVIEW_TOKEN_TIME, '$1<time>');
  return walk(outcome, replace) as Shown;
}

/** The message of a thrown error; Zapier's errors carry theirs JSON-encoded, n8n's add a description. */
export function messageOf(error: unknown): string {
  const { message = String(error), description } = error as { message?: string; description?: string };
  let text = message;
  try {
    const parsed = JSON.parse(message) as { message?: string };
    if (typeof parsed.message === 'string') text = parsed.message;
  } catch {
    // a plain message
  }
  return description ? `${text} ${description}` : text;
}
