import { InputError } from '../../errors';
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import type { CampaignParameters, UpdateLinkInput } from '../../types';
import { LINK_FIELD, readLinkId } from '../common-fields';
import { EXPIRES_AT_FIELD, PASSWORD_FIELD, readExpiresAt, readSlug, readUrl, readUtm, SLUG_FIELD, TARGET_URL_FIELD, TITLE_FIELD, UTM_FIELDS, withUtm } from '../link-fields';
import { LINK_OUTPUT_FIELDS, LINK_SAMPLE, linkRecord } from '../link-record';
import type { Operation, OperationContext } from '../operation';

function removeSwitch(key: string, label: string, help: string): FormField {
  return { key, label, kind: 'boolean', group: 'options', default: false, help };
}

/** A value and its "Remove" switch: the pairs the rule "not both" applies to. */
const REMOVABLE = [
  { key: 'title', remove: 'removeTitle' },
  { key: 'expiresAt', remove: 'removeExpiry' },
  { key: 'password', remove: 'removePassword' },
] as const;

const UPDATE_FIELDS: readonly FormField[] = [
  LINK_FIELD,
  { ...TARGET_URL_FIELD, required: false, group: 'options', help: 'The new page the short URL sends visitors to. Without https:// it is added.' },
  { ...SLUG_FIELD, help: 'The new end of the short URL: letters, digits, "-" and "_".' },
  { ...TITLE_FIELD, help: 'The new name of the link. To remove the title, use Remove Title.' },
  removeSwitch('removeTitle', 'Remove Title', 'Whether to remove the title so that the link has none.'),
  { key: 'active', label: 'Active', kind: 'boolean', group: 'options', startValue: true, help: 'Whether the short URL works. Turn off to pause the link without deleting it.' },
  {
    ...EXPIRES_AT_FIELD,
    help: 'When the short URL stops working. A date and time without a time zone is read in the workflow\'s time zone.',
    agentHelp: 'When the short URL stops working, e.g. 2026-12-31T23:59:00Z. A date and time without a time zone is read in the time zone the server is set to (UTC unless set otherwise).',
  },
  removeSwitch('removeExpiry', 'Remove Expiry', 'Whether to remove the expiry date so that the link never expires.'),
  { ...PASSWORD_FIELD, help: 'A new password visitors must enter (4 to 128 characters).' },
  removeSwitch('removePassword', 'Remove Password', 'Whether to remove the password protection.'),
  ...UTM_FIELDS.map((field) => ({ ...field, help: `${field.help} Added to the new target URL, or to the link's current one.` })),
];

function isSet(form: FormReader, key: string): boolean {
  const value = form.raw(key);
  return !(value === undefined || value === null || (typeof value === 'string' && value.trim() === ''));
}

/** Both a value and its Remove switch leave the intent open: ask instead of guessing. */
function checkRemoveSwitches(form: FormReader): void {
  for (const { key, remove } of REMOVABLE) {
    if (form.flag(remove) && isSet(form, key)) {
      throw new InputError(key, `Both "${form.label(key)}" and "${form.label(remove)}" are set: enter a new value or turn on "${form.label(remove)}", not both.`);
    }
  }
}

/** The changes the form asks for, every value checked before any request (the current target only when UTM fields need it). */
function readPatch(form: FormReader, context: OperationContext, utm: CampaignParameters | undefined): UpdateLinkInput {
  checkRemoveSwitches(form);
  const patch: UpdateLinkInput = {};
  const targetUrl = readUrl(form, 'targetUrl');
  if (targetUrl !== undefined) patch.targetUrl = withUtm(targetUrl, utm);
  const slug = readSlug(form);
  if (slug !== undefined) patch.slug = slug;
  if (form.flag('removeTitle')) patch.title = '';
  else if (form.text('title') !== undefined) patch.title = form.text('title');
  if (isSet(form, 'active')) patch.active = form.flag('active');
  if (form.flag('removeExpiry')) patch.expiresAt = null;
  else if (isSet(form, 'expiresAt')) patch.expiresAt = readExpiresAt(form, context);
  if (form.flag('removePassword')) patch.password = null;
  else if (form.text('password') !== undefined) patch.password = form.text('password');
  return patch;
}

/**
 * Update: changes only what the form sets. UTM fields without a new Target URL apply to the link's current
 * target (read first), replacing parameters of the same name. A value and its Remove switch together are
 * refused; an empty form is refused before anything is sent.
 */
export const updateLink: Operation = {
  key: 'link.update',
  resource: 'link',
  action: 'update',
  label: 'Update',
  description: "Changes a short link's target URL (UTM parameters included), slug, title, expiry, password or whether it works; empty fields stay as they are.",
  returns: 'Returns the link as it is now.',
  safety: { readOnly: false, destructive: true, idempotent: true },
  fields: UPDATE_FIELDS,
  output: { count: 'one', fields: LINK_OUTPUT_FIELDS },
  sample: { records: [LINK_SAMPLE] },
  async run(client, form, context) {
    const utm = readUtm(form, context);
    const patch = readPatch(form, context, utm);
    if (Object.keys(patch).length === 0 && utm === undefined) {
      throw new InputError('link', 'Nothing to update: set at least one field (a new target URL, slug, title, expiry, password, Active) or a UTM parameter.');
    }
    const id = await readLinkId(client, form);
    if (patch.targetUrl === undefined && utm !== undefined) patch.targetUrl = withUtm((await client.getLink(id)).targetUrl, utm);
    return { records: [linkRecord(await client.updateLink(id, patch))] };
  },
};
