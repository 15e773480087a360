/**
 * The Zapier app through zapier-platform-core's createAppTester, and the Zapier formatting step undone
 * (packages/zapier/src/adapter/output.ts): which step runs an operation, and how its output gives the
 * core's records back. Operations the app does not offer (Get Many, domains, account, campaign URL; the
 * statistics split per country, device, browser or referrer) have no Zapier step.
 */
import { createAppTester } from 'zapier-platform-core';
import '../../support/zapier-local-dev';
import app from '../../../packages/zapier/src';
import { recordsFromZapier, type OutputShape } from '../../../packages/zapier/src/adapter/output';
import type { Fixture } from './fixtures';
import { messageOf, type Outcome } from './outcome';

export interface ZapierStep {
  /** 'creates.create_link', 'searches.find_links', or 'searchOrCreates.find_link' (search, then the create half when nothing is found). */
  method: string;
  shape: OutputShape;
  /** A search whose "nothing found" ([]) stands for the core's not-found error. */
  emptyIsNotFound?: boolean;
}

export function zapierStepFor(operationKey: string, values: Record<string, unknown>): ZapierStep | undefined {
  switch (operationKey) {
    case 'link.create':
      return { method: 'creates.create_link', shape: { kind: 'object' } };
    case 'link.update':
      return { method: 'creates.update_link', shape: { kind: 'object' } };
    case 'link.delete':
      return { method: 'creates.delete_link', shape: { kind: 'object' } };
    case 'link.findOrCreate':
      return { method: 'searchOrCreates.find_link', shape: { kind: 'object' } };
    case 'link.get':
      return { method: 'searches.get_link', shape: { kind: 'list' }, emptyIsNotFound: true };
    case 'link.qrCode':
      return { method: 'creates.make_qr_code', shape: { kind: 'object' } };
    case 'report.campaign':
      return { method: 'searches.campaign_report', shape: { kind: 'lineItems', key: 'rows' } };
    case 'link.find':
      return { method: 'searches.find_links', shape: { kind: 'lineItems', key: 'links' } };
    case 'link.findOrCreateMany':
      return values.mode === 'submit'
        ? { method: 'creates.create_from_preview', shape: { kind: 'lineItems', key: 'rowResults', as: 'object' } }
        : { method: 'searches.preview_sheet', shape: { kind: 'lineItems', key: 'rowResults' } };
    case 'stats.get': {
      const split = String(values.splitInto ?? 'none');
      if (split === 'none') return { method: 'searches.link_stats', shape: { kind: 'list' }, emptyIsNotFound: true };
      if (split === 'day') return { method: 'searches.daily_clicks', shape: { kind: 'lineItems', key: 'days' }, emptyIsNotFound: true };
      return undefined;
    }
    default:
      return undefined;
  }
}

type Perform = (z: unknown, bundle: unknown) => Promise<unknown>;

function performOf(path: string): Perform {
  const node = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], app) as { operation: { perform: Perform } };
  return node.operation.perform;
}

export function zapierBundle(values: Record<string, unknown>, fixture: Fixture, timeZone: string) {
  return { authData: { baseUrl: fixture.baseUrl, apiKey: fixture.apiKey }, inputData: { ...values }, meta: { timezone: timeZone } };
}

/** Calls one method of the app (tests: createAppTester; the zip: its Lambda handler) and gives its output. */
export type ZapierInvoke = (method: string, bundle: object) => Promise<unknown>;

/**
 * Runs the step as Zapier would and undoes Zapier's formatting step. Find or Create is Zapier's
 * searchOrCreate: the search half (find_link) with the same values, and only when it finds nothing the
 * create half (find_or_create_link). A hit of the search half is the core's record with created: false
 * (Zapier shows its own "search was found" flag beside it).
 */
export async function zapierOutcome(step: ZapierStep, bundle: object, invoke: ZapierInvoke): Promise<Outcome> {
  try {
    if (step.method === 'searchOrCreates.find_link') {
      const found = (await invoke('searches.find_link.operation.perform', bundle)) as Array<Record<string, unknown>>;
      if (found.length > 0) return { records: [{ ...found[0], created: false }] };
      return { records: [(await invoke('creates.find_or_create_link.operation.perform', bundle)) as Record<string, unknown>] };
    }
    const records = recordsFromZapier(await invoke(`${step.method}.operation.perform`, bundle), step.shape);
    if (step.emptyIsNotFound && records.length === 0) return { error: '', notFound: true };
    return { records };
  } catch (error) {
    return { error: messageOf(error), notFound: false };
  }
}

/** Through zapier-platform-core's createAppTester, in this process. */
export function runZapier(step: ZapierStep, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Promise<Outcome> {
  const appTester = createAppTester(app) as unknown as (perform: Perform, bundle: object) => Promise<unknown>;
  return zapierOutcome(step, zapierBundle(values, fixture, timeZone), (method, bundle) => appTester(performOf(method.replace(/\.operation\.perform$/, '')), bundle));
}
