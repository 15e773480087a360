import { defineApp, version as platformVersion } from 'zapier-platform-core';
import { authentication } from './authentication';
import { withZapierErrors, type Perform } from './errors';
import { addAuthorizationHeader } from './middleware';
import { throttle } from './throttle';
import { domainList } from './triggers/domainList';
import { hydrators } from './adapter/files';
import { CORE_TRIGGERS, STEPS, type GeneratedStep } from './steps';
import type { FieldLabels } from '@shortlink/core/host';
import packageJson from '../package.json';

/** Every perform goes through the one error mapping, so no operation can forget it; errors name fields by the core's labels. */
function mapErrors<T extends { operation: object }>(definition: T, labels?: FieldLabels): T {
  const operation = definition.operation as { perform: Perform };
  return { ...definition, operation: { ...operation, perform: withZapierErrors(operation.perform, { labels }) } };
}

type Generated = { definition: { key: string; operation: object }; labels?: FieldLabels };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated definitions are checked by defineCreate/defineSearch/defineTrigger
const byKey = (list: readonly Generated[]): Record<string, any> =>
  Object.fromEntries(list.map(({ definition, labels }) => [definition.key, mapErrors(definition, labels)]));

const ofKind = (kind: GeneratedStep['kind']) => STEPS.filter((step) => step.kind === kind);

const app = defineApp({
  version: packageJson.version,
  platformVersion,
  // The connection test runs while the user connects: a refused key there is "check the key", not "reconnect".
  authentication: { ...authentication, test: withZapierErrors(authentication.test, { connecting: true }) },
  beforeRequest: [addAuthorizationHeader],
  // Every request of the app goes through z.request, which Zapier logs (and scrubs) itself; the global
  // patch of Node's http module would add nothing but a second, process-wide wrapper.
  flags: { skipHttpPatch: true },
  throttle,
  // Generated from the core's triggers and operations with its exposure table (steps.ts).
  triggers: byKey([...CORE_TRIGGERS, { definition: domainList }]),
  creates: byKey(ofKind('create')),
  // Files (QR codes, CSV reports) are handed on as hydrated files: stashed only when a later step uses one.
  hydrators,
  searches: byKey(ofKind('search')),
  // The create half runs the core's Find or Create, not a plain create: the same link n8n gives.
  searchOrCreates: Object.fromEntries(
    STEPS.flatMap(({ searchOrCreate, definition }) =>
      searchOrCreate
        ? [[searchOrCreate.key, { key: searchOrCreate.key, display: { label: searchOrCreate.label, description: `${(definition as { display: { description: string } }).display.description} ${searchOrCreate.description}` }, search: searchOrCreate.search, create: searchOrCreate.create }]]
        : [],
    ),
  ),
});

// CommonJS on purpose: Zapier's wrapper require()s index.js and expects the definition itself.
export = app;
