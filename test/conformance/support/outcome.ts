/**
 * What a host gave for one case, in the core's terms after the host's one formatting step is undone
 * (docs/architecture.md, "Host formatting steps"), and normalized so that runs on different sandboxes compare.
 */
export type Outcome =
  | { records: Array<Record<string, unknown>> }
  | { error: string; notFound: boolean; parts?: string[] };

/** A slug nobody typed: the service's random one (7 letters and digits) or the client's marker (10). */
const AUTO_SLUG = /^(?:[A-Za-z0-9]{7}|[A-Za-z0-9]{10})$/;

function walk(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((entry) => walk(entry, replace));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, walk(entry, replace)]));
  return value;
}

/** The sandbox's address becomes "<base>", a slug the service picked at random "<auto>". */
export function normalize(outcome: Outcome, baseUrl: string, typedSlug: unknown): Outcome {
  if ('error' in outcome) {
    const local = (text: string) => text.split(baseUrl).join('<base>');
    return { error: local(outcome.error), notFound: outcome.notFound, ...(outcome.parts ? { parts: outcome.parts.map(local) } : {}) };
  }
  const auto = outcome.records.map((record) => record.slug).filter((slug): slug is string => typeof slug === 'string' && AUTO_SLUG.test(slug) && slug !== typedSlug);
  const replace = (text: string) => auto.reduce((current, slug) => current.split(slug).join('<auto>'), text.split(baseUrl).join('<base>'));
  return { records: walk(outcome.records, replace) as Array<Record<string, unknown>> };
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
