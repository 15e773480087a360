/**
 * What a Clicks Per Day trigger watches and delivers, checked before any request. Scope as in Link Clicks
 * (links created in the last N days, chosen links) plus a campaign (the UTM tags of the stored targets).
 */
import { InputError } from '../../../errors';
import { checkLinkId } from '../../../forms/input-checks';
import { MAX_CHOSEN_LINKS, MAX_CREATED_WITHIN_DAYS } from '../../../polls/link-clicks/options';
import type { LinkSelection } from '../../reports/link-selection';

export type ClicksPerDayScope =
  | { createdWithinDays: number }
  | { linkIds: readonly string[] }
  | { campaign: string; source?: string; medium?: string };

/** One record per watched link and day, or per campaign and day (the sum over its links). */
export type ClicksPerDayUnit = 'link' | 'campaign';

export interface CheckedScope {
  kind: 'recent' | 'chosen' | 'campaign';
  days?: number;
  ids?: string[];
  campaign?: LinkSelection & { kind: 'campaign' };
  /** Names the scope in the state: a round made for another scope is not continued. */
  key: string;
}

export function checkDailyScope(value: unknown): CheckedScope {
  const scope = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const given = ['createdWithinDays', 'linkIds', 'campaign'].filter((key) => scope[key] !== undefined);
  if (given.length !== 1) {
    throw new InputError('scope', 'scope must be one of { createdWithinDays } (links created in the last N days), { linkIds } (chosen links) or { campaign } (links of a campaign).');
  }
  if (scope.createdWithinDays !== undefined) {
    const days = scope.createdWithinDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_CREATED_WITHIN_DAYS) {
      throw new InputError('createdWithinDays', `createdWithinDays must be a whole number of days from 1 to ${MAX_CREATED_WITHIN_DAYS}; got ${JSON.stringify(days)}.`);
    }
    return { kind: 'recent', days, key: `recent:${days}` };
  }
  if (scope.linkIds !== undefined) {
    if (!Array.isArray(scope.linkIds) || scope.linkIds.length === 0) throw new InputError('linkIds', 'linkIds must name at least one link (its id).');
    const ids = [...new Set(scope.linkIds.map((id) => checkLinkId(id, 'linkIds')))];
    if (ids.length > MAX_CHOSEN_LINKS) throw new InputError('linkIds', `linkIds may name at most ${MAX_CHOSEN_LINKS} links; got ${ids.length}. Watch a campaign or links created in the last N days instead.`);
    return { kind: 'chosen', ids, key: `chosen:${[...ids].sort().join(',')}` };
  }
  const text = (v: unknown, field: string): string | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw new InputError(field, `${field} must be text such as spring_sale.`);
    return v.trim();
  };
  const campaign = text(scope.campaign, 'campaign');
  if (campaign === undefined) throw new InputError('campaign', 'campaign must name the utm_campaign of the links, e.g. spring_sale.');
  const selection: LinkSelection & { kind: 'campaign' } = { kind: 'campaign', campaign };
  const source = text(scope.source, 'source');
  const medium = text(scope.medium, 'medium');
  if (source !== undefined) selection.source = source;
  if (medium !== undefined) selection.medium = medium;
  return { kind: 'campaign', campaign: selection, key: `campaign:${JSON.stringify([campaign, source ?? null, medium ?? null])}` };
}

export function checkUnit(value: unknown): ClicksPerDayUnit {
  if (value === undefined || value === 'link' || value === 'campaign') return value ?? 'link';
  throw new InputError('per', `per must be "link" (one record per link and day) or "campaign" (one per campaign and day); got ${JSON.stringify(value)}.`);
}
