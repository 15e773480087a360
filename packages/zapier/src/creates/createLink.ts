import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { completeCreatedLink, type CreateLinkInput } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalString, requiredString } from '../inputs';
import { linkForZapier, linkOutputFields, linkSample } from '../fields/linkOutput';
import { readUtm, utmInputFields, withUtm } from '../fields/utm';
import { readExpiresAt } from '../fields/expiresAt';

async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  const sent: CreateLinkInput = {
    targetUrl: withUtm(requiredString(input, 'targetUrl', 'Target URL'), readUtm(input)),
    slug: optionalString(input, 'slug'),
    title: optionalString(input, 'title'),
    domain: optionalString(input, 'domain'),
    expiresAt: readExpiresAt(bundle),
    password: optionalString(input, 'password'),
  };
  // The creation answers nine fields; the step hands out all twelve (Expires At and Has Password are
  // mapped after it), taken from what was sent, without another request.
  return linkForZapier(completeCreatedLink(await clientFor(z, bundle).createLink(sent), sent));
}

export const createLink = defineCreate({
  key: 'create_link',
  noun: 'Link',
  display: {
    label: 'Create Link',
    description: 'Creates a short link, optionally tagging the target URL with UTM parameters.',
  },
  operation: {
    perform,
    inputFields: [
      {
        key: 'targetUrl',
        label: 'Target URL',
        type: 'string',
        required: true,
        helpText: 'The page the short link redirects to: an absolute address starting with `https://` or `http://`.',
      },
      ...utmInputFields('the target URL'),
      {
        key: 'slug',
        label: 'Slug',
        type: 'string',
        required: false,
        helpText: 'The path of the short URL: letters, digits, `-` and `_`, starting with a letter or digit, at most 64 characters. Left empty, the service picks one.',
      },
      { key: 'title', label: 'Title', type: 'string', required: false, helpText: 'A label for the link, shown in the dashboard and in the Link dropdowns.' },
      {
        key: 'domain',
        label: 'Domain',
        type: 'string',
        required: false,
        dynamic: 'domain_list.hostname.hostname',
        helpText: 'A verified custom domain of your account. Left empty, the default domain is used.',
      },
      {
        key: 'expiresAt',
        label: 'Expires At',
        type: 'datetime',
        required: false,
        helpText: 'When the link stops redirecting; must be in the future. Left empty, it never expires.',
      },
      {
        key: 'password',
        label: 'Password',
        type: 'password',
        required: false,
        helpText: 'Visitors must enter this password before they are redirected.',
      },
    ],
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
