import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { clientFor } from '../client';
import { optionalString, requiredString } from '../inputs';
import { createdLinkOutputFields, createdLinkSample } from '../fields/linkOutput';
import { utmInputFields, withCampaign } from '../fields/utmFields';

async function perform(z: ZObject, bundle: Bundle) {
  const input = bundle.inputData;
  const targetUrl = withCampaign(requiredString(input, 'targetUrl', 'Target URL'), input);
  return clientFor(z, bundle).createLink({
    targetUrl,
    slug: optionalString(input, 'slug'),
    title: optionalString(input, 'title'),
    domain: optionalString(input, 'domain'),
    expiresAt: optionalString(input, 'expiresAt'),
    password: optionalString(input, 'password'),
  });
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
        helpText: 'The absolute http(s) URL the short link redirects to.',
      },
      ...utmInputFields('before the link is created'),
      {
        key: 'slug',
        label: 'Slug',
        type: 'string',
        required: false,
        helpText: 'Path of the short URL (letters, digits, - and _). Left empty, the service picks one.',
      },
      { key: 'title', label: 'Title', type: 'string', required: false, helpText: 'A label for the link.' },
      {
        key: 'domain',
        label: 'Domain',
        type: 'string',
        required: false,
        dynamic: 'domain_list.hostname.hostname',
        helpText: 'A verified custom domain. Left empty, the default domain is used.',
      },
      {
        key: 'expiresAt',
        label: 'Expires At',
        type: 'datetime',
        required: false,
        helpText: 'When the link stops redirecting. Left empty, it never expires.',
      },
      {
        key: 'password',
        label: 'Password',
        type: 'password',
        required: false,
        helpText: 'Visitors must enter this password before the redirect.',
      },
    ],
    sample: createdLinkSample,
    outputFields: createdLinkOutputFields,
  },
});
