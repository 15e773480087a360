/**
 * UTM presets and normalisation (issue 37), defined once for every host and every operation that tags a
 * URL (Create, Find or Create, Find, Update, Build URL and the bulk Find or Create Many).
 *
 * A team keeps its rules as a few lines of text where each host keeps settings of the account (n8n: the
 * credential; Zapier: the connection; MCP: the server's config), so every workflow, Zap and agent on the
 * account tags alike:
 *
 *     Newsletter: source=newsletter, medium=email
 *     Paid social: source=facebook, medium=cpc
 *     allowed medium: email, cpc, social, qr
 *     separator: _
 *     normalise: on
 *
 * The normalisation, on unless a line says `normalise: off`, applies to utm_source, utm_medium and
 * utm_campaign (the values reports group by): surrounding spaces trimmed, lower case, and every run of
 * spaces, "-" and "_" made one separator ("_", or "-" with `separator: -`). So "Newsletter", " newsletter"
 * and "NEWSLETTER" are one source, and "Spring Sale", "spring-sale" and "spring_sale" one campaign. utm_term
 * and utm_content (keywords, ad names) are only trimmed. An `allowed` list refuses every other value,
 * naming the field, before anything is sent; a value that differs from an allowed one only by its
 * separators ("news-letter" for "newsletter") is taken as that value.
 */
import { InputError } from '../errors';
import type { CampaignParameters } from '../types';

export type UtmParameter = keyof CampaignParameters;

export const UTM_PARAMETERS: readonly UtmParameter[] = ['source', 'medium', 'campaign', 'term', 'content'];

/** The parameters normalisation changes beyond trimming: the ones reports group by. */
const TIDIED: ReadonlySet<UtmParameter> = new Set(['source', 'medium', 'campaign']);

/** The setting's name as every host labels it. */
export const UTM_PRESETS_LABEL = 'UTM Presets';

/** Where the setting lives, for messages (each host names it the same way). */
const WHERE = 'the UTM Presets setting of your connection (n8n: the credential; Zapier: the connection; MCP: the server\'s config)';

export interface UtmPreset {
  name: string;
  values: CampaignParameters;
}

export interface UtmRules {
  /** By name in lower case. */
  presets: ReadonlyMap<string, UtmPreset>;
  /** Allowed values per parameter, already normalised. */
  allowed: Partial<Record<UtmParameter, readonly string[]>>;
  normalise: boolean;
  separator: '_' | '-';
}

export const DEFAULT_UTM_RULES: UtmRules = { presets: new Map(), allowed: {}, normalise: true, separator: '_' };

/** The setting as a host keeps it: text (lines), or a list of lines (a JSON config). */
export type UtmPresetsText = string | readonly string[];

function parameterOf(word: string): UtmParameter | undefined {
  const name = word.trim().toLowerCase().replace(/^utm_/, '');
  return (UTM_PARAMETERS as readonly string[]).includes(name) ? (name as UtmParameter) : undefined;
}

function refuse(line: number, text: string, why: string): never {
  throw new InputError('utmPresets', `${UTM_PRESETS_LABEL}, line ${line} ("${text.length > 60 ? `${text.slice(0, 60)}…` : text}"): ${why}`);
}

const PARAMETER_WORDS = 'source, medium, campaign, term or content';

/**
 * The rules a team wrote, checked line by line; an error names the line and what is allowed. Empty or
 * missing text gives the defaults (normalisation on, no presets, no allowed lists).
 */
export function parseUtmRules(text: UtmPresetsText | undefined): UtmRules {
  if (text === undefined) return DEFAULT_UTM_RULES;
  const lines = typeof text === 'string' ? text.split(/\r?\n/) : [...text];
  const presets = new Map<string, UtmPreset>();
  const rawAllowed: Partial<Record<UtmParameter, string[]>> = {};
  let normalise = true;
  let separator: '_' | '-' = '_';
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (typeof raw !== 'string') refuse(line, String(raw), 'each entry must be a line of text.');
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const colon = text.indexOf(':');
    if (colon <= 0) refuse(line, text, 'write a name, a colon and the values, e.g. "Newsletter: source=newsletter, medium=email".');
    const head = text.slice(0, colon).trim();
    const rest = text.slice(colon + 1).trim();
    const headWord = head.toLowerCase();
    if (headWord === 'normalise' || headWord === 'normalize') {
      if (!['on', 'off'].includes(rest.toLowerCase())) refuse(line, text, 'normalise is "on" or "off".');
      normalise = rest.toLowerCase() === 'on';
      return;
    }
    if (headWord === 'separator') {
      if (rest !== '_' && rest !== '-') refuse(line, text, 'the separator is "_" or "-".');
      separator = rest;
      return;
    }
    const allowedOf = /^allowed\s+(.+)$/i.exec(head);
    if (allowedOf) {
      const parameter = parameterOf(allowedOf[1]!);
      if (!parameter) refuse(line, text, `"allowed" is followed by ${PARAMETER_WORDS}, e.g. "allowed medium: email, cpc, social".`);
      const values = rest.split(',').map((value) => value.trim()).filter((value) => value !== '');
      if (values.length === 0) refuse(line, text, 'list the allowed values after the colon, separated by commas.');
      rawAllowed[parameter] = [...(rawAllowed[parameter] ?? []), ...values];
      return;
    }
    const values: CampaignParameters = {};
    for (const pair of rest.split(',')) {
      if (pair.trim() === '') continue;
      const equals = pair.indexOf('=');
      const parameter = equals < 0 ? undefined : parameterOf(pair.slice(0, equals));
      const value = equals < 0 ? '' : pair.slice(equals + 1).trim();
      if (!parameter || value === '') refuse(line, text, `each value is ${PARAMETER_WORDS}, "=" and a value, separated by commas, e.g. "source=newsletter, medium=email".`);
      values[parameter] = value;
    }
    if (Object.keys(values).length === 0) refuse(line, text, 'a preset needs at least one value, e.g. "source=newsletter".');
    if (presets.has(head.toLowerCase())) refuse(line, text, `the preset "${head}" is defined twice.`);
    presets.set(head.toLowerCase(), { name: head, values });
  });
  const rules: UtmRules = { presets, allowed: {}, normalise, separator };
  const allowed: Partial<Record<UtmParameter, readonly string[]>> = {};
  for (const parameter of UTM_PARAMETERS) {
    const values = rawAllowed[parameter];
    if (values) allowed[parameter] = [...new Set(values.map((value) => tidy(parameter, value, rules)))];
  }
  return { ...rules, allowed };
}

/** Trimming, and for source, medium and campaign the case and separators rule. */
function tidy(parameter: UtmParameter, value: string, rules: UtmRules): string {
  const trimmed = value.trim();
  if (!rules.normalise || !TIDIED.has(parameter)) return trimmed;
  return trimmed.toLowerCase().replace(/[\s_-]+/g, rules.separator);
}

/** A value with every separator taken out: "news-letter" and "newsletter" read alike against a list. */
function loose(value: string): string {
  return value.replace(/[\s_.-]+/g, '');
}

/**
 * One UTM value as it is stored: normalised, then checked against the allowed list (a value that differs
 * from an allowed one only by its separators becomes that one). `label` names the field in the refusal.
 */
export function normaliseUtmValue(parameter: UtmParameter, value: string, rules: UtmRules, field: { key: string; label: string }): string {
  const tidied = tidy(parameter, value, rules);
  const allowed = rules.allowed[parameter];
  if (!allowed || tidied === '') return tidied;
  if (allowed.includes(tidied)) return tidied;
  const near = rules.normalise ? allowed.find((candidate) => loose(candidate) === loose(tidied)) : undefined;
  if (near !== undefined) return near;
  throw new InputError(field.key, `"${field.label}" is "${value.trim()}", which is not an allowed ${parameter}. Allowed: ${allowed.join(', ')} (from ${WHERE}).`);
}

/** The preset of that name (any case), or a refusal naming the field and the presets there are. */
export function presetNamed(name: string, rules: UtmRules, field: { key: string; label: string }): UtmPreset {
  const preset = rules.presets.get(name.trim().toLowerCase());
  if (preset) return preset;
  const names = [...rules.presets.values()].map((entry) => entry.name);
  throw new InputError(
    field.key,
    names.length === 0
      ? `"${field.label}" is "${name}", but no UTM presets are defined. Add them to ${WHERE}, one a line, e.g. "Newsletter: source=newsletter, medium=email".`
      : `"${field.label}" is "${name}", which is not one of your presets: ${names.join(', ')} (from ${WHERE}).`,
  );
}
