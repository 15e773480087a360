import { readTarget, TARGET_URL_FIELD, UTM_FIELDS } from '../link-fields';
import type { Operation } from '../operation';

/**
 * Campaign URL: the target with the UTM fields applied, exactly as Create would store it, without sending
 * anything (to check a URL, or to use it where no short link is wanted).
 */
export const buildCampaignUrlOperation: Operation = {
  key: 'campaign.buildUrl',
  resource: 'campaign',
  action: 'buildUrl',
  label: 'Build URL',
  description: 'Adds your UTM parameters to a URL, exactly as Create would, without making a short link.',
  safety: { readOnly: true, destructive: false, idempotent: true, offline: true },
  fields: [{ ...TARGET_URL_FIELD, help: 'The page to tag, e.g. https://example.org/spring-sale. Without https:// it is added.' }, ...UTM_FIELDS],
  output: { count: 'one', fields: [{ key: 'url', label: 'Campaign URL', type: 'string' }] },
  sample: { records: [{ url: 'https://example.org/spring-sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring' }] },
  async run(_client, form, context) {
    return { records: [{ url: readTarget(form, context) }] };
  },
};
