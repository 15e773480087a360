import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { InputError, type UpdateLinkInput } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalBoolean, optionalString, requiredString } from '../inputs';
import { linkForZapier, linkOutputFields, linkSample } from '../fields/linkOutput';
import { linkIdField, resolveLinkId } from '../fields/linkIdInput';
import { readUtm, utmInputFields, withUtm } from '../fields/utm';
import { readExpiresAt } from '../fields/expiresAt';

/** Zapier sends '' for an empty field, so clearing needs a switch: value field, its switch, their labels. */
const CLEARABLE = [
  { field: 'title', remove: 'removeTitle', label: 'Title', removeLabel: 'Remove Title' },
  { field: 'expiresAt', remove: 'removeExpiry', label: 'Expires At', removeLabel: 'Remove Expiry' },
  { field: 'password', remove: 'removePassword', label: 'Password', removeLabel: 'Remove Password' },
] as const;

const NOTHING_TO_UPDATE =
  'Nothing to update: fill at least one of Target URL, a UTM field, Slug, Title, Active, Expires At or Password, or turn on Remove Title, Remove Expiry or Remove Password.';

async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  requiredString(input, 'id', 'Link'); // refused before any request; a short URL is looked up below
  const removing: Record<string, boolean> = {};
  for (const { field, remove, label, removeLabel } of CLEARABLE) {
    removing[field] = optionalBoolean(input, remove, removeLabel) === true;
    // A value and its switch together leave the intent open: ask instead of guessing.
    if (removing[field] && optionalString(input, field) !== undefined) {
      throw new InputError(remove, `Set either ${label} or ${removeLabel}, not both.`);
    }
  }
  // Only filled fields are sent: a field left empty keeps its value on the link.
  const patch: UpdateLinkInput = {};
  const slug = optionalString(input, 'slug');
  if (slug !== undefined) patch.slug = slug;
  const title = optionalString(input, 'title');
  if (removing.title) patch.title = ''; // the API's "no title" (Title is a string, empty when none)
  else if (title !== undefined) patch.title = title;
  const active = optionalBoolean(input, 'active', 'Active');
  if (active !== undefined) patch.active = active;
  const expiresAt = readExpiresAt(bundle);
  if (removing.expiresAt) patch.expiresAt = null;
  else if (expiresAt !== undefined) patch.expiresAt = expiresAt;
  const password = optionalString(input, 'password');
  if (removing.password) patch.password = null;
  else if (password !== undefined) patch.password = password;

  const utm = readUtm(input);
  const targetUrl = optionalString(input, 'targetUrl');
  if (targetUrl === undefined && utm === undefined && Object.keys(patch).length === 0) {
    throw new InputError('patch', NOTHING_TO_UPDATE);
  }
  const id = await resolveLinkId(z, bundle);
  const client = clientFor(z, bundle);
  // UTM fields go into the new Target URL, or into the link's current one (read first).
  if (targetUrl !== undefined) patch.targetUrl = withUtm(targetUrl, utm);
  else if (utm !== undefined) patch.targetUrl = withUtm((await client.getLink(id)).targetUrl, utm);
  return linkForZapier(await client.updateLink(id, patch));
}

export const updateLink = defineCreate({
  key: 'update_link',
  noun: 'Link',
  display: {
    label: 'Update Link',
    description: 'Updates the target URL, UTM parameters, slug, title, status, expiry or password of a link; empty fields stay as they are.',
  },
  operation: {
    perform,
    inputFields: [
      linkIdField,
      { key: 'targetUrl', label: 'Target URL', type: 'string', required: false, helpText: 'The new page the short link redirects to, starting with `https://` or `http://`.' },
      ...utmInputFields('the new Target URL, or to the link\'s current one when Target URL is empty,'),
      { key: 'slug', label: 'Slug', type: 'string', required: false, helpText: 'The new path of the short URL: letters, digits, `-` and `_`, at most 64 characters.' },
      { key: 'title', label: 'Title', type: 'string', required: false, helpText: 'The new label of the link. To remove the title, use Remove Title.' },
      {
        key: 'removeTitle',
        label: 'Remove Title',
        type: 'boolean',
        required: false,
        helpText: 'Yes removes the title, so that the link has none. Leave Title empty then.',
      },
      {
        key: 'active',
        label: 'Active',
        type: 'boolean',
        required: false,
        helpText: 'No pauses the link (it stops redirecting); yes resumes it.',
      },
      { key: 'expiresAt', label: 'Expires At', type: 'datetime', required: false, helpText: 'The new expiry; must be in the future.' },
      {
        key: 'removeExpiry',
        label: 'Remove Expiry',
        type: 'boolean',
        required: false,
        helpText: 'Yes removes the expiry, so that the link never expires. Leave Expires At empty then.',
      },
      { key: 'password', label: 'Password', type: 'password', required: false, helpText: 'A new password visitors must enter before they are redirected.' },
      {
        key: 'removePassword',
        label: 'Remove Password',
        type: 'boolean',
        required: false,
        helpText: 'Yes removes the password protection. Leave Password empty then.',
      },
    ],
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
