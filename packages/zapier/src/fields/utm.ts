import type { Bundle } from 'zapier-platform-core';
import { buildCampaignUrl } from '@shortlink/core/portable';
import { optionalString } from '../inputs';

/** UTM fields of Create, Update and Find Link (which must look for what Create stores): input key → the buildCampaignUrl parameter it fills. */
const UTM_FIELDS = [
  { key: 'utmSource', param: 'source', label: 'UTM Source', example: 'newsletter' },
  { key: 'utmMedium', param: 'medium', label: 'UTM Medium', example: 'email' },
  { key: 'utmCampaign', param: 'campaign', label: 'UTM Campaign', example: 'spring_sale' },
  { key: 'utmTerm', param: 'term', label: 'UTM Term', example: 'running shoes' },
  { key: 'utmContent', param: 'content', label: 'UTM Content', example: 'header_button' },
] as const;

/** The input fields; `to` says which URL they go into (Create: the target URL; Update: the new or current one). */
export function utmInputFields(to: string) {
  return UTM_FIELDS.map((field) => ({
    key: field.key,
    label: field.label,
    type: 'string' as const,
    required: false,
    helpText: `Added to ${to} as \`utm_${field.param}\` (for example \`${field.example}\`); replaces an existing \`utm_${field.param}\`.`,
  }));
}

/** The UTM parameters that are filled, or undefined when none is. */
export function readUtm(input: Bundle['inputData']): Record<string, string> | undefined {
  const utm = Object.fromEntries(
    UTM_FIELDS.map((field) => [field.param, optionalString(input, field.key)]).filter(([, value]) => value !== undefined),
  ) as Record<string, string>;
  return Object.keys(utm).length === 0 ? undefined : utm;
}

/** The URL with the UTM parameters applied; without any, the URL as it is. (The core checks the URL; errors.ts labels it.) */
export function withUtm(url: string, utm: Record<string, string> | undefined): string {
  return utm === undefined ? url : buildCampaignUrl(url, utm);
}
