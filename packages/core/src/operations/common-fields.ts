/** Fields several operations share, described once (labels from forms/form-words COMMON_FIELD_LABELS). */
import { InputError, NotFoundError } from '../errors';
import type { ShortLinkClient } from '../client';
import type { FormField } from '../forms/form-fields';
import { MAX_QUOTED_INPUT, quoteInput, type FormReader } from '../forms/form-values';

export const LINK_FIELD: FormField = {
  key: 'link',
  label: 'Link',
  kind: 'link',
  required: true,
  group: 'main',
  help: 'The short link to use: its ID (e.g. 1042) or its full short URL (e.g. https://sho.rt/spring-sale).',
  placeholder: 'e.g. https://sho.rt/spring-sale',
};

/** What a Link field takes, as patterns hosts can check while people type (n8n's locator modes). */
export const LINK_ID_RULE = { pattern: '^[0-9]+$', message: 'A link ID contains digits only, e.g. 1042' } as const;
export const SHORT_URL_RULE = { pattern: '^https?://[^\\s/]+/[^\\s]+$', message: 'Enter the full short URL, e.g. https://sho.rt/spring-sale' } as const;

const SHORT_URL = /^https?:\/\//i;
const LINK_ID = new RegExp(LINK_ID_RULE.pattern);

/**
 * The id of the link the Link field names. A short URL is looked up through the account (the service has
 * no lookup by short URL); an unknown one is an error naming the field.
 */
export async function readLinkId(client: ShortLinkClient, form: FormReader, key = 'link'): Promise<string> {
  const value = form.requiredText(key);
  if (!SHORT_URL.test(value)) {
    if (!LINK_ID.test(value)) {
      throw new InputError(key, `"${form.label(key)}" must be a link's ID (digits, e.g. 1042) or its full short URL (e.g. https://sho.rt/spring-sale); got ${quoteInput(value)}.`);
    }
    return value;
  }
  const link = await client.findLinkByShortUrl(value);
  if (!link) {
    // The sentence is the title too: hosts show the title as the headline (n8n), and it says what to check.
    const shown = value.length <= MAX_QUOTED_INPUT ? value : quoteInput(value);
    const sentence = `No link of this account has the short URL ${shown} ("${form.label(key)}").`;
    throw new NotFoundError({ title: sentence, message: sentence, detail: `Check the "${form.label(key)}" field: enter the full short URL, e.g. https://sho.rt/spring-sale, or the link's ID.` });
  }
  return link.id;
}
