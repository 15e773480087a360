/**
 * Errors in the words of a host's form. The client names fields as the API does (`targetUrl`), and the
 * service's 422 may quote a raw pattern; people see labels (`Target URL`) and rules. A host passes its
 * labels; the rules of the API's fields live here, next to the API.
 */
import { ConflictError, ForbiddenError, InputError, ShortLinkError, ValidationError } from '../errors';
import { SLUG_RULE } from './input-checks';

/** The service checks these fields by pattern or format (openapi components.schemas); these say the rules in words. */
export const FIELD_RULES: Readonly<Record<string, string>> = {
  slug: SLUG_RULE,
  targetUrl: 'an absolute http(s) URL without spaces, at most 2048 characters',
  domain: 'the hostname of a verified custom domain of the account, such as go.example.org',
  expiresAt: 'a date and time with a time zone, such as 2026-12-31T23:59:59Z',
};

/** API field name → the label a form shows for it. Unknown fields keep their name. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The labels both hosts give the API's link and connection fields (their forms and the shared credential
 * use the same words); a host spreads these and adds or overrides its own.
 */
export const COMMON_FIELD_LABELS: FieldLabels = {
  targetUrl: 'Target URL',
  // buildCampaignUrl checks the URL the UTM fields go into: the Target URL field.
  url: 'Target URL',
  slug: 'Slug',
  title: 'Title',
  domain: 'Domain',
  expiresAt: 'Expires At',
  password: 'Password',
  active: 'Active',
  id: 'Link',
  baseUrl: 'Base URL',
  apiKey: 'API Key',
};

export interface FormWords {
  /** The explanation in the form's words: what is wrong and, where known, what is allowed. */
  detail: string | undefined;
  /** Labels of the fields concerned (none when the failure concerns no field). */
  fields: string[];
}

function labelOf(field: string, labels: FieldLabels): string {
  return labels[field] ?? field;
}

// ajv's wording (the sandbox) and the plain "must match ^…$" of other validators.
const RAW_PATTERN = /\bmust match (?:pattern )?"?\^[^\s"]*\$?"?/g;
const RAW_FORMAT = /\bmust match format "([^"]+)"/g;

/** One message about `field`: its name as the label, a raw pattern or format as the field's rule. */
export function relabel(message: string, field: string, labels: FieldLabels): string {
  const rule = FIELD_RULES[field.split('.').pop() ?? field];
  let text = message.replace(RAW_PATTERN, rule ? `must be ${rule}` : 'is not in the form the service accepts');
  text = text.replace(RAW_FORMAT, (_all, format: string) => (rule ? `must be ${rule}` : `must be a valid ${format}`));
  if (field !== '' && (text === field || text.startsWith(`${field} `) || text.startsWith(`${field}:`))) {
    text = `${labelOf(field, labels)}${text.slice(field.length)}`;
  }
  return text;
}

/**
 * What a client error means for the person who filled the form: the sentence with API names replaced by the
 * form's labels and raw patterns by rules, and the fields it concerns. Input errors (nothing was sent) keep
 * their whole sentence; the service's explanation (`detail`) is kept as it came, with its field messages
 * reworded where it quotes them.
 */
export function inFormWords(error: ShortLinkError, labels: FieldLabels): FormWords {
  if (error instanceof InputError) {
    return { detail: relabel(error.message, error.field, labels), fields: [labelOf(error.field, labels)] };
  }
  if (error instanceof ValidationError && error.fieldErrors.length > 0) {
    const reworded = error.fieldErrors.map((entry) => ({ ...entry, text: relabel(entry.message, entry.field, labels) }));
    let detail = error.detail;
    if (detail !== undefined) {
      for (const entry of reworded) detail = detail.split(entry.message).join(entry.text);
      detail = relabel(detail, '', labels);
    } else {
      detail = reworded.map((entry) => (entry.field && !entry.text.startsWith(labelOf(entry.field, labels)) ? `${labelOf(entry.field, labels)}: ${entry.text}` : entry.text)).join(' ');
    }
    const fields = [...new Set(error.fieldErrors.filter((entry) => entry.field !== '').map((entry) => labelOf(entry.field, labels)))];
    return { detail, fields };
  }
  const detail = error.detail === undefined ? undefined : relabel(error.detail, '', labels);
  // 409 on links means a taken slug (docs/api-contract.md); a 403 for a domain concerns the domain field.
  if (error instanceof ConflictError) return { detail, fields: [labelOf('slug', labels)] };
  if (error instanceof ForbiddenError && error.reason === 'domain') return { detail, fields: [labelOf('domain', labels)] };
  return { detail, fields: [] };
}
