import { defineApp, version as platformVersion } from 'zapier-platform-core';
import { sheetSafeRecord } from '@shortlink/core/portable';
import { authentication } from './authentication';
import { withZapierErrors, type Perform } from './errors';
import { addAuthorizationHeader } from './middleware';
import { throttle } from './throttle';
import { newLink } from './triggers/newLink';
import { domainList } from './triggers/domainList';
import { linkClicks } from './triggers/linkClicks';
import { clicksPerDay } from './triggers/clicksPerDay';
import { createLink } from './creates/createLink';
import { updateLink } from './creates/updateLink';
import { deleteLink } from './creates/deleteLink';
import { findOrCreateLink } from './creates/findOrCreateLink';
import { makeQrCode } from './creates/makeQrCode';
import { createFromPreview } from './creates/createFromPreview';
import { previewSheet } from './searches/previewSheet';
import { hydrators } from './adapter/files';
import { findLink } from './searches/findLink';
import { findLinks } from './searches/findLinks';
import { getLink } from './searches/getLink';
import { linkStats } from './searches/linkStats';
import { dailyClicks } from './searches/dailyClicks';
import { campaignReport } from './searches/campaignReport';
import { SAME_UTM_IN_BOTH_HALVES } from './fields/findOrCreateTrap';
import packageJson from '../package.json';

/** A trigger's items as Zapier hands them on: sheet-safe like every step's (the core's rule). */
function sheetSafeTrigger<T extends { key: string; operation: object }>(definition: T): T {
  const operation = definition.operation as { perform: Perform };
  const perform: Perform = async (z, bundle) => {
    const items = await operation.perform(z, bundle);
    return Array.isArray(items) ? items.map((item) => (isRecord(item) ? sheetSafeRecord(item) : item)) : items;
  };
  return { ...definition, operation: { ...operation, perform } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
  triggers: byKey([newLink, domainList, linkClicks, clicksPerDay].map(sheetSafeTrigger)),
  creates: byKey([createLink, updateLink, deleteLink, findOrCreateLink, makeQrCode, createFromPreview]),
  // Files (QR codes, CSV reports) are handed on as hydrated files: stashed only when a later step uses one.
  hydrators,
  searches: byKey([findLink, findLinks, getLink, linkStats, dailyClicks, campaignReport, previewSheet]),
  searchOrCreates: {
    find_link: {
      key: 'find_link',
      display: {
        label: 'Find or Create Link',
        description: `Finds the short link of a URL (with your UTM parameters) and creates it only when there is none, so reruns make no duplicates: safe to repeat. Returns the link; Created says whether it is new. It creates only after reading the whole account at most 10 minutes earlier; a target changed in the dashboard within those minutes can still be missed. ${SAME_UTM_IN_BOTH_HALVES}`,
      },
      // The create half runs the core's Find or Create, not a plain create (creates/findOrCreateLink.ts).
      search: 'find_link',
      create: 'find_or_create_link',
    },
  },
});

// CommonJS on purpose: Zapier's wrapper require()s index.js and expects the definition itself.
export = app;
