import { defineApp, version as platformVersion } from 'zapier-platform-core';
import { authentication } from './authentication';
import { withZapierErrors, type Perform } from './errors';
import { addAuthorizationHeader } from './middleware';
import { throttle } from './throttle';
import { newLink } from './triggers/newLink';
import { domainList } from './triggers/domainList';
import { linkClicks } from './triggers/linkClicks';
import { createLink } from './creates/createLink';
import { updateLink } from './creates/updateLink';
import { deleteLink } from './creates/deleteLink';
import { findLink } from './searches/findLink';
import { linkStats } from './searches/linkStats';
import packageJson from '../package.json';

/** Every perform goes through the one error mapping, so no operation can forget it. */
function mapErrors<T extends { operation: object }>(definition: T): T {
  const operation = definition.operation as { perform: Perform };
  return { ...definition, operation: { ...operation, perform: withZapierErrors(operation.perform) } };
}

const byKey = <T extends { key: string; operation: object }>(list: T[]): Record<string, T> =>
  Object.fromEntries(list.map((definition) => [definition.key, mapErrors(definition)]));

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
  triggers: byKey([newLink, domainList, linkClicks]),
  creates: byKey([createLink, updateLink, deleteLink]),
  searches: byKey([findLink, linkStats]),
  searchOrCreates: {
    find_link: {
      key: 'find_link',
      display: {
        label: 'Find or Create Link',
        description:
          'Finds a link by its target URL (UTM fields applied), slug, ID or short URL, and creates it when none matches. It creates only after reading the whole account at most 10 minutes earlier; a target changed in the dashboard within those minutes can still be missed.',
      },
      search: 'find_link',
      create: 'create_link',
    },
  },
});

// CommonJS on purpose: Zapier's wrapper require()s index.js and expects the definition itself.
export = app;
