/**
 * Trigger cases of the conformance table: a sequence of steps on one fresh fixture — polls with the state
 * the host keeps between them, links created and clicks made in between — run through the core's trigger,
 * the built n8n trigger node (its static data) and the Zapier app's polling trigger (its z.cache, one Zap,
 * Zapier's dedupe). Each host's polls, its formatting undone, must give what the core's give. MCP offers no
 * trigger (the exposure table says why).
 */
import { createClient } from '@shortlink/core';
import { isOffered, triggerExposureOf } from '@shortlink/core/host';
import { runTrigger, triggerByKey, type Trigger } from '@shortlink/core/operations';
import { createAppTester } from 'zapier-platform-core';
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import '../../support/zapier-local-dev';
import { click } from '../../support/clicks';
import app from '../../../packages/zapier/src';
import { ShortLinkTrigger, triggerHost } from '../../../packages/n8n-nodes-shortlink/test/harness';
import { ZapierDedupe } from '../../../packages/zapier/test/helpers';
import { resolveValues, startFixture, type AccountFixture, type Fixture } from './fixtures';
import { messageOf, normalize, type Outcome } from './outcome';
import { agreement } from './zapier-host';

export type TriggerStep =
  | { poll: { records: Array<Record<string, unknown>> } | { error: string } }
  | { create: Array<Record<string, unknown>> }
  | { click: { link: string; times: number } };

export interface TriggerCase {
  name: string;
  trigger: string;
  account: AccountFixture;
  timeZone?: string;
  values: Record<string, unknown>;
  steps: TriggerStep[];
}

export type TriggerHostName = 'core' | 'n8n' | 'zapier';

/** One poll as a host gives it, in the core's terms. */
type Poll = () => Promise<Array<Record<string, unknown>>>;

function coreHost(trigger: Trigger, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Poll {
  const client = createClient({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey });
  let state: unknown;
  return async () => {
    const result = await runTrigger(trigger, client, values, state, { timeZone });
    state = JSON.parse(JSON.stringify(result.state)); // kept as plain JSON, as hosts keep it
    return result.records;
  };
}

const triggerDescription = new ShortLinkTrigger().description;

/** The trigger node's parameters for the case's values, read from its description: a field by its name, or inside the event's collection. */
export function n8nTriggerParameters(trigger: Trigger, values: Record<string, unknown>): INodeParameters {
  const event = triggerExposureOf(trigger).n8n;
  if (!isOffered(event)) throw new Error(`${trigger.key} is not on n8n`);
  const shown = triggerDescription.properties.filter((property) => ((property.displayOptions?.show?.event as string[] | undefined) ?? [event.event]).includes(event.event));
  const parameters: Record<string, unknown> = { event: event.event };
  for (const [key, value] of Object.entries(values)) {
    if (shown.some((property) => property.name === key && property.type !== 'collection')) {
      parameters[key] = value;
      continue;
    }
    const collection = shown.find((property) => property.type === 'collection' && (property.options as INodeProperties[] | undefined)?.some((option) => option.name === key));
    if (collection) parameters[collection.name] = { ...(parameters[collection.name] as object | undefined), [key]: value };
  }
  return parameters as INodeParameters;
}

function n8nHost(trigger: Trigger, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Poll {
  const host = triggerHost({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey }, n8nTriggerParameters(trigger, values), { timezone: timeZone });
  return async () => ((await host.poll()) ?? []) as Array<Record<string, unknown>>;
}

/** Whether the Zapier app offers the trigger for these values (the exposure table's fixed values agree). */
export function zapierTakes(trigger: Trigger, values: Record<string, unknown>): boolean {
  const exposure = triggerExposureOf(trigger).zapier;
  return isOffered(exposure) && agreement(exposure.fixed, values, trigger.fields) !== 'conflict';
}

/**
 * Zapier's formatting undone (packages/zapier/src/adapter/output-fields.ts zapierItem, newest first): the
 * event's id back to eventId and the link's id back to id, oldest first; only what fires the Zap (Zapier's
 * dedupe: the first poll of a Zap fills its table and fires nothing).
 */
function zapierHost(trigger: Trigger, values: Record<string, unknown>, fixture: Fixture, timeZone: string): Poll {
  const exposure = triggerExposureOf(trigger).zapier;
  if (!isOffered(exposure)) throw new Error(`${trigger.key} is not on Zapier`);
  const appTester = createAppTester(app) as unknown as (perform: unknown, bundle: object) => Promise<Array<Record<string, unknown> & { id: string }>>;
  const perform = (app.triggers as Record<string, { operation: { perform: unknown } }>)[exposure.key]!.operation.perform;
  const dedupe = new ZapierDedupe();
  const events = trigger.output.some((field) => field.key === 'eventId');
  let first = true;
  return async () => {
    const bundle = { authData: { baseUrl: fixture.baseUrl, apiKey: fixture.apiKey }, inputData: { ...values }, meta: { zap: { id: 'conformance' }, timezone: timeZone, isPopulatingDedupe: first } };
    first = false;
    const fired = dedupe.accept(await appTester(perform, bundle)) as Array<Record<string, unknown>>;
    return fired.reverse().map((item) => (events ? (({ id, linkId, ...rest }) => ({ ...rest, id: linkId, eventId: id }))(item) : item));
  };
}

const HOSTS: Record<TriggerHostName, (trigger: Trigger, values: Record<string, unknown>, fixture: Fixture, timeZone: string) => Poll> = {
  core: coreHost,
  n8n: n8nHost,
  zapier: zapierHost,
};

/** Runs the case's steps on a fresh fixture through one host: one outcome per poll. */
export async function runTriggerCase(host: TriggerHostName, testCase: TriggerCase): Promise<Outcome[]> {
  const trigger = triggerByKey(testCase.trigger);
  const fixture = await startFixture(testCase.account);
  try {
    const values = resolveValues(testCase.values, fixture);
    const poll = HOSTS[host](trigger, values, fixture, testCase.timeZone ?? 'UTC');
    const api = createClient({ baseUrl: fixture.baseUrl, apiKey: fixture.apiKey });
    const outcomes: Outcome[] = [];
    for (const step of testCase.steps) {
      if ('create' in step) for (const link of step.create) await api.createLink(resolveValues(link, fixture) as never);
      else if ('click' in step) await click((await api.getLink(String(resolveValues({ link: step.click.link }, fixture).link))).shortUrl, step.click.times);
      else {
        const outcome: Outcome = await poll().then(
          (records) => ({ records }),
          (error: unknown) => ({ error: messageOf(error), notFound: false }),
        );
        outcomes.push(normalize(outcome, fixture.baseUrl, undefined));
      }
    }
    return outcomes;
  } finally {
    await fixture.close();
  }
}

/** Which hosts offer the trigger (the exposure table), and whether a case can run there. */
export function triggerHostsFor(testCase: TriggerCase): TriggerHostName[] {
  const trigger = triggerByKey(testCase.trigger);
  const exposure = triggerExposureOf(trigger);
  return [
    'core',
    ...(isOffered(exposure.n8n) ? (['n8n'] as const) : []),
    ...(zapierTakes(trigger, testCase.values) ? (['zapier'] as const) : []),
  ];
}
