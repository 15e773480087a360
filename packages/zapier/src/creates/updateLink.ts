import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { InputError, type UpdateLinkInput } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalBoolean, optionalString } from '../inputs';
import { linkOutputFields, linkSample } from '../fields/linkOutput';
import { linkIdField, resolveLinkId } from '../fields/linkIdInput';

async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  const id = await resolveLinkId(z, bundle);
  const expiresAt = optionalString(input, 'expiresAt');
  const removeExpiry = optionalBoolean(input, 'removeExpiry', 'Remove Expiry');
  if (removeExpiry && expiresAt !== undefined) {
    throw new InputError('removeExpiry', 'Set either Expires At (expiresAt) or Remove Expiry (removeExpiry), not both.');
  }
  // Only filled fields are sent: a field left empty keeps its value on the link.
  const patch: UpdateLinkInput = {
    targetUrl: optionalString(input, 'targetUrl'),
    slug: optionalString(input, 'slug'),
    title: optionalString(input, 'title'),
    active: optionalBoolean(input, 'active', 'Active'),
    expiresAt: removeExpiry ? null : expiresAt,
  };
  return clientFor(z, bundle).updateLink(id, withoutUndefined(patch));
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export const updateLink = defineCreate({
  key: 'update_link',
  noun: 'Link',
  display: {
    label: 'Update Link',
    description: 'Changes the target URL, slug, title, status or expiry of a link. Empty fields stay as they are.',
  },
  operation: {
    perform,
    inputFields: [
      linkIdField,
      { key: 'targetUrl', label: 'Target URL', type: 'string', required: false, helpText: 'New absolute http(s) destination.' },
      { key: 'slug', label: 'Slug', type: 'string', required: false, helpText: 'New path of the short URL (letters, digits, - and _).' },
      { key: 'title', label: 'Title', type: 'string', required: false, helpText: 'New label of the link.' },
      {
        key: 'active',
        label: 'Active',
        type: 'boolean',
        required: false,
        helpText: 'False pauses the link (it stops redirecting); true resumes it.',
      },
      { key: 'expiresAt', label: 'Expires At', type: 'datetime', required: false, helpText: 'New expiry time.' },
      {
        key: 'removeExpiry',
        label: 'Remove Expiry',
        type: 'boolean',
        required: false,
        helpText: 'True removes the expiry so the link never expires. Leave Expires At empty then.',
      },
    ],
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
