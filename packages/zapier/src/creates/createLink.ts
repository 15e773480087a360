import { defineCreate, type Bundle, type ZObject } from 'zapier-platform-core';
import { buildCampaignUrl, InputError } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { optionalString, requiredString } from '../inputs';
import { createdLinkOutputFields, createdLinkSample } from '../fields/linkOutput';

/** UTM fields: input key → the buildCampaignUrl parameter it fills. */
const UTM_FIELDS = [
  { key: 'utmSource', param: 'source', label: 'UTM Source', example: 'newsletter' },
  { key: 'utmMedium', param: 'medium', label: 'UTM Medium', example: 'email' },
  { key: 'utmCampaign', param: 'campaign', label: 'UTM Campaign', example: 'spring_sale' },
  { key: 'utmTerm', param: 'term', label: 'UTM Term', example: 'running shoes' },
  { key: 'utmContent', param: 'content', label: 'UTM Content', example: 'header_button' },
] as const;

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

/** Applies the UTM fields that are filled; without any, the URL goes to the core untouched. */
function withCampaign(targetUrl: string, input: Bundle['inputData']): string {
  const utm = Object.fromEntries(
    UTM_FIELDS.map((field) => [field.param, optionalString(input, field.key)]).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(utm).length === 0) return targetUrl;
  try {
    return buildCampaignUrl(targetUrl, utm);
  } catch (error) {
    // The core names its parameter `url`; the user knows the field as Target URL.
    if (error instanceof InputError) {
      throw new InputError('targetUrl', `Target URL (targetUrl): ${error.message}`);
    }
    throw error;
  }
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
      ...UTM_FIELDS.map((field) => ({
        key: field.key,
        label: field.label,
        type: 'string' as const,
        required: false,
        helpText: `Added to the target URL as utm_${field.param} (e.g. ${field.example}); replaces an existing utm_${field.param}.`,
      })),
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
