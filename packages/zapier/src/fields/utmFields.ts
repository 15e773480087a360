import type { Bundle } from 'zapier-platform-core';
import { buildCampaignUrl, InputError } from '@shortlink/core/portable';
import { optionalString } from '../inputs';

/** UTM fields: input key → the buildCampaignUrl parameter it fills. Create Link and Find Link share them. */
export const UTM_FIELDS = [
  { key: 'utmSource', param: 'source', label: 'UTM Source', example: 'newsletter' },
  { key: 'utmMedium', param: 'medium', label: 'UTM Medium', example: 'email' },
  { key: 'utmCampaign', param: 'campaign', label: 'UTM Campaign', example: 'spring_sale' },
  { key: 'utmTerm', param: 'term', label: 'UTM Term', example: 'running shoes' },
  { key: 'utmContent', param: 'content', label: 'UTM Content', example: 'header_button' },
] as const;

/** The UTM input fields; `doing` says what the tagged URL is used for. */
export function utmInputFields(doing: string) {
  return UTM_FIELDS.map((field) => ({
    key: field.key,
    label: field.label,
    type: 'string' as const,
    required: false,
    helpText: `Added to the target URL as utm_${field.param} (e.g. ${field.example}) ${doing}; replaces an existing utm_${field.param}.`,
  }));
}

/**
 * The target URL with the filled UTM fields applied — what Create Link stores, and so what Find Link
 * (the search half of Find or Create) must look for. Without any, the URL goes to the core untouched.
 */
export function withCampaign(targetUrl: string, input: Bundle['inputData']): string {
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
