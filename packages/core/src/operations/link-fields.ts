/**
 * The fields of a link as people fill them in (Create, Find or Create, Find, Update, the campaign URL),
 * described once, and the readers that turn them into what the client sends. Decisions (docs/api-contract.md,
 * "One meaning per operation"):
 * - a target URL typed without a scheme (`www.example.com/page`, as sheets hold it) gets `https://` added,
 *   and the returned targetUrl shows it;
 * - the UTM fields are applied to the target before anything else, so "the same link" is the UTM-tagged
 *   target on the chosen domain (the default domain when Domain is empty) on every operation;
 * - the slug rule is checked before sending, in the form's words;
 * - an expiry is read once, in the run's time zone, and refused when not ahead.
 */
import { InputError } from '../errors';
import { buildCampaignUrl } from '../forms/campaign-url';
import { normaliseUtmValue, parseUtmRules, presetNamed, type UtmRules } from '../forms/utm-rules';
import { readExpiry } from '../forms/date-input';
import type { FormField } from '../forms/form-fields';
import type { FormReader } from '../forms/form-values';
import { checkHttpUrl, checkSlug } from '../forms/input-checks';
import type { CampaignParameters, CreateLinkInput } from '../types';
import type { OperationContext } from './operation';

export const TARGET_URL_FIELD: FormField = {
  key: 'targetUrl',
  label: 'Target URL',
  kind: 'url',
  required: true,
  group: 'main',
  help: 'The page the short URL sends visitors to, e.g. https://example.org/spring-sale. Without https:// it is added.',
  placeholder: 'e.g. https://example.org/spring-sale',
};

export const DOMAIN_FIELD: FormField = {
  key: 'domain',
  label: 'Domain',
  kind: 'domain',
  group: 'main',
  help: 'Your custom domain for the short URL, e.g. go.example.org. Leave empty for the default domain.',
  placeholder: 'e.g. go.example.org',
};

export const SLUG_FIELD: FormField = {
  key: 'slug',
  label: 'Slug',
  kind: 'text',
  group: 'options',
  help: 'The end of the short URL, after the domain: letters, digits, "-" and "_". Empty lets the service choose one.',
  placeholder: 'e.g. spring-sale',
};

export const TITLE_FIELD: FormField = {
  key: 'title',
  label: 'Title',
  kind: 'text',
  group: 'options',
  help: 'A name to recognise the link by, e.g. Spring sale newsletter.',
  placeholder: 'e.g. Spring sale newsletter',
};

export const PASSWORD_FIELD: FormField = {
  key: 'password',
  label: 'Password',
  kind: 'password',
  group: 'options',
  help: 'Visitors must enter this password (4 to 128 characters) before they reach the page.',
};

export const EXPIRES_AT_FIELD: FormField = {
  key: 'expiresAt',
  label: 'Expires At',
  kind: 'dateTime',
  group: 'options',
  help: 'When the short URL stops working. A date and time without a time zone is read in the workflow\'s time zone. Empty: never.',
  agentHelp: 'When the short URL stops working, e.g. 2026-12-31T23:59:00Z. A date and time without a time zone is read in the time zone the server is set to (UTC unless set otherwise). Empty: never.',
};

/** UTM fields in the order marketers think of them: where from, how, which campaign, then the details. */
const UTM_PARTS = [
  { key: 'utmSource', param: 'source', label: 'UTM Source', example: 'newsletter', what: 'Where the visitors come from, such as newsletter or google' },
  { key: 'utmMedium', param: 'medium', label: 'UTM Medium', example: 'email', what: 'The kind of channel, such as email, cpc or social' },
  { key: 'utmCampaign', param: 'campaign', label: 'UTM Campaign', example: 'spring_sale', what: 'The name of the campaign or promotion' },
  { key: 'utmTerm', param: 'term', label: 'UTM Term', example: 'running shoes', what: 'The paid search keyword' },
  { key: 'utmContent', param: 'content', label: 'UTM Content', example: 'header_banner', what: 'Tells apart links or ads that lead to the same page' },
] as const;

/** A named set of UTM values the team keeps with its connection (forms/utm-rules.ts). */
export const UTM_PRESET_FIELD: FormField = {
  key: 'utmPreset',
  label: 'UTM Preset',
  kind: 'text',
  group: 'utm',
  help: 'The name of one of your UTM presets (kept in the UTM Presets setting of your connection), e.g. Newsletter for source newsletter and medium email. UTM fields you fill in below win over the preset\'s.',
  placeholder: 'e.g. Newsletter',
};

/**
 * The UTM fields: the preset first, then the parameters. Source, medium and campaign are normalised (lower
 * case, one separator) unless the team's UTM Presets say `normalise: off` (forms/utm-rules.ts).
 */
export const UTM_FIELDS: readonly FormField[] = [
  UTM_PRESET_FIELD,
  ...UTM_PARTS.map((part): FormField => ({
    key: part.key,
    label: part.label,
    kind: 'text',
    group: 'utm',
    help: `${part.what}; added to the target URL as utm_${part.param} (replaces one already there).${['source', 'medium', 'campaign'].includes(part.param) ? ' Stored in lower case with "_" between words (your UTM Presets setting may choose otherwise).' : ''}`,
    placeholder: `e.g. ${part.example}`,
  })),
];

/** Runs a core check that names the field by what it is given, with the field's label, and keeps the key. */
export function inLabel<T>(form: FormReader, key: string, check: (label: string) => T): T {
  try {
    return check(form.label(key));
  } catch (error) {
    if (error instanceof InputError && error.field !== key) throw new InputError(key, error.message);
    throw error;
  }
}

/** A host name with a dot (or localhost), an optional port, then a path, query or nothing: `www.example.com/page`. */
const HOST_WITHOUT_SCHEME = /^(?:\/\/)?(?:[^\s/?#:@]+\.[^\s/?#:@]+|localhost)(?::\d+)?(?:[/?#]\S*)?$/i;

/**
 * A URL as typed: `https://` added when it is a host and path without a scheme (`www.example.com/page`, as
 * sheets hold it), then checked; anything else is checked as typed, so the error quotes what was typed.
 */
export function readUrl(form: FormReader, key: string): string | undefined {
  const text = form.text(key);
  if (text === undefined) return undefined;
  const url = HOST_WITHOUT_SCHEME.test(text) ? `https://${text.replace(/^\/\//, '')}` : text;
  return inLabel(form, key, (label) => checkHttpUrl(url, label));
}

/** The team's UTM rules the host keeps (context.utmPresets), read once per form. */
export function utmRulesOf(context: OperationContext): UtmRules {
  return parseUtmRules(context.utmPresets);
}

/**
 * The UTM fields that are filled, with the chosen preset under them, normalised and checked against the
 * allowed lists (errors name the field); undefined when none is filled.
 */
export function readUtm(form: FormReader, context: OperationContext, rules = utmRulesOf(context)): CampaignParameters | undefined {
  const presetName = form.text(UTM_PRESET_FIELD.key);
  const preset = presetName === undefined ? {} : presetNamed(presetName, rules, { key: UTM_PRESET_FIELD.key, label: form.label(UTM_PRESET_FIELD.key) }).values;
  const utm: CampaignParameters = {};
  for (const part of UTM_PARTS) {
    const value = form.text(part.key) ?? preset[part.param];
    if (value === undefined) continue;
    const normalised = normaliseUtmValue(part.param, value, rules, { key: part.key, label: form.label(part.key) });
    if (normalised !== '') utm[part.param] = normalised;
  }
  return Object.keys(utm).length === 0 ? undefined : utm;
}

/** A URL with the form's UTM fields applied (as Create stores it); errors name the UTM field's label. */
export function withUtm(url: string, utm: CampaignParameters | undefined): string {
  if (utm === undefined) return url;
  try {
    return buildCampaignUrl(url, utm);
  } catch (error) {
    const part = UTM_PARTS.find((candidate) => error instanceof InputError && error.field === `utm.${candidate.param}`);
    if (part && error instanceof InputError) throw new InputError(part.key, error.message.split(`utm.${part.param}`).join(part.label));
    throw error;
  }
}

/** The target URL field with its UTM fields applied: what is stored, and what "the same link" compares. */
export function readTarget(form: FormReader, context: OperationContext, key = 'targetUrl'): string {
  const url = readUrl(form, key);
  if (url === undefined) form.requiredText(key);
  return withUtm(url!, readUtm(form, context));
}

/** The Domain field: a hostname, or null for the default domain (empty field). */
export function readDomain(form: FormReader): string | null {
  const text = form.text('domain');
  if (text === undefined) return null;
  // A pasted URL names its host; people copy domains from the browser bar.
  const host = /^https?:\/\//i.test(text) ? text.replace(/^https?:\/\//i, '').split('/')[0]! : text;
  return host.toLowerCase();
}

/** The Slug field checked against the service's rule, or undefined when empty. */
export function readSlug(form: FormReader, key = 'slug'): string | undefined {
  const text = form.text(key);
  return text === undefined ? undefined : inLabel(form, key, (label) => checkSlug(text, label));
}

type DateLike = { toISO(): string | null };

/** A date as typed; a Date or a Luxon DateTime (from an n8n expression) as the instant it carries. */
export function dateText(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null && typeof (value as DateLike).toISO === 'function') return (value as DateLike).toISO();
  return value;
}

/** The Expires At field, normalised once (UTC, as the service stores it), or undefined when empty. */
export function readExpiresAt(form: FormReader, context: OperationContext, key = 'expiresAt'): string | undefined {
  const raw = dateText(form.raw(key));
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  const now = (context.now ?? Date.now)();
  return inLabel(form, key, (label) => readExpiry(raw, { field: label, timeZone: context.timeZone ?? 'UTC', now }));
}

/** The fields of a new link as Create and Find or Create read them. */
export function readNewLink(form: FormReader, context: OperationContext): CreateLinkInput {
  const input: CreateLinkInput = { targetUrl: readTarget(form, context) };
  const domain = readDomain(form);
  if (domain !== null) input.domain = domain;
  const slug = readSlug(form);
  if (slug !== undefined) input.slug = slug;
  const title = form.text('title');
  if (title !== undefined) input.title = title;
  const password = form.text('password');
  if (password !== undefined) input.password = password;
  const expiresAt = readExpiresAt(form, context);
  if (expiresAt !== undefined) input.expiresAt = expiresAt;
  return input;
}

/** The form of a new link: target, domain, the UTM fields, then the options. */
export const NEW_LINK_FIELDS: readonly FormField[] = [TARGET_URL_FIELD, DOMAIN_FIELD, ...UTM_FIELDS, SLUG_FIELD, TITLE_FIELD, PASSWORD_FIELD, EXPIRES_AT_FIELD];
