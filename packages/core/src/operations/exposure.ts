/**
 * What each host offers each operation and trigger as, in one table: the n8n resource and operation (and its
 * action text), the Zapier steps (key, label, output shape, values the step fixes), the MCP tool — or why a
 * host does not offer it. Hosts build their registries from exposureOf(); the conformance table and its
 * coverage test read it too. An operation without a row gets the defaults below, so adding an operation
 * takes its module and its line in OPERATIONS, nothing per host (docs/architecture.md, "How to add an
 * operation"). A row is needed only where a host's name must stay as users know it, or differs from the rule.
 */
import type { FormValues } from '../forms/form-values';
import type { Operation, ResourceName } from './operation';
import type { Trigger } from './trigger';
import { ONE_PAGE_FORMS } from './links/get-links-page';

/** A host leaves the operation out on purpose; `because` says why, in one sentence. */
export interface NotOffered {
  notOffered: string;
}

export interface N8nExposure {
  /** n8n's Resource value (its dropdown name: RESOURCE_WORDS). */
  resource: string;
  /** n8n's Operation value within the resource. */
  operation: string;
  /** n8n's action text, e.g. "Create a link" (what the nodes panel lists). */
  action: string;
}

/** How a Zapier step hands the records over (its "formatting step"). */
export type ZapierOutputShape =
  | { kind: 'object' } // a create's one record
  | { kind: 'list' } // a search's records; Zapier takes the first
  | { kind: 'lineItems'; key: string; label: string; countLabel: string; as?: 'list' | 'object' }; // the summary, count, the records under `key`: a list of that one object (a search), or the object itself (`as: 'object'`, a create)

export interface ZapierStep {
  kind: 'create' | 'search';
  key: string;
  noun: string;
  label: string;
  /** What the step says it returns, where its shape says it otherwise than the operation's description. */
  returns?: string;
  /** The whole description, where the step is a narrower use of the operation (a fixed choice). */
  description?: string;
  output: ZapierOutputShape;
  /** Values the step fixes; their fields are not shown. */
  fixed?: FormValues;
  /** A search: an unknown link is the empty answer "nothing found", not an error. */
  notFoundIsEmpty?: boolean;
  /** Not listed on its own (the create half of a search-or-create). */
  hidden?: boolean;
  /** Whether Link fields offer the Find Link search connector (not on Find Link itself). */
  linkSearch?: boolean;
  /** A warning shown before the fields (a step that cannot be undone). */
  warning?: string;
  /** More help by field key, or by group ('utm'), from HOST_WORDING. */
  extraHelp?: Readonly<Record<string, string>>;
  /** A search-or-create pairing: this create is the create half of `search`. */
  searchOrCreate?: { key: string; label: string; search: string; description: string };
}

export interface McpExposure {
  tool: string;
  title: string;
  /** The form agents get instead (a list without an end of its own: one page at a time). */
  form?: Operation;
}

export interface Exposure {
  key: string;
  n8n: N8nExposure | NotOffered;
  zapier: readonly ZapierStep[] | NotOffered;
  mcp: McpExposure | NotOffered;
}

export interface TriggerExposure {
  key: string;
  /** n8n's Event value of the Short Link Trigger. */
  n8n: { event: string } | NotOffered;
  zapier: { key: string; noun: string; label: string; fixed?: FormValues } | NotOffered;
  mcp: NotOffered;
}

export function isOffered<T extends object>(exposure: T | NotOffered): exposure is T {
  return !('notOffered' in exposure);
}

/** A resource as each host names it. */
export const RESOURCE_WORDS: Readonly<Record<ResourceName, { n8n: string; noun: string; zapier: string; mcp: string }>> = {
  link: { n8n: 'Link', noun: 'link', zapier: 'Link', mcp: 'Link' },
  stats: { n8n: 'Statistic', noun: 'link statistics', zapier: 'Link Statistics', mcp: 'Link Stats' },
  domain: { n8n: 'Domain', noun: 'domain', zapier: 'Domain', mcp: 'Domain' },
  account: { n8n: 'Account', noun: 'account', zapier: 'Account', mcp: 'Account' },
  campaign: { n8n: 'Campaign', noun: 'campaign URL', zapier: 'Campaign URL', mcp: 'Campaign URL' },
  report: { n8n: 'Report', noun: 'report', zapier: 'Report', mcp: 'Campaign Report' },
  qrCode: { n8n: 'QR Code', noun: 'QR code', zapier: 'QR Code', mcp: 'QR Code' },
};

/** "Find or Create" → find_or_create; "qrCode" → qr_code (names of letters, digits and "_"). */
export function snakeCase(words: string): string {
  return words
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

/**
 * Wording a host must say differently, in one place (everything else is the operation's own). Zapier's
 * Find or Create Link is two steps with a form each: the same UTM values must go into both.
 */
export const HOST_WORDING = {
  zapier: {
    sameUtmInBothHalves:
      'In Find or Create Link, enter the same UTM values here and in the other half (search and create): different values look for one URL and reuse or create another.',
    /** Zapier's search half reads the stored index of the connection, which may be minutes old. */
    findOrCreateFreshness:
      'It creates only after reading the whole account at most 10 minutes earlier; a target changed in the dashboard within those minutes can still be missed.',
    deleteWarning: '**This cannot be undone.** The short URL stops working at once, also where it is already printed or shared.',
  },
} as const;

const ZAPIER_UTM_HELP = { utm: HOST_WORDING.zapier.sameUtmInBothHalves };

/** The rows where a host's name or shape differs from the defaults. */
const EXPOSURES: Readonly<Record<string, Partial<Omit<Exposure, 'key'>>>> = {
  'link.create': {
    zapier: [{ kind: 'create', key: 'create_link', noun: 'Link', label: 'Create Link', output: { kind: 'object' } }],
  },
  'link.update': {
    zapier: [{ kind: 'create', key: 'update_link', noun: 'Link', label: 'Update Link', output: { kind: 'object' } }],
  },
  'link.delete': {
    zapier: [{ kind: 'create', key: 'delete_link', noun: 'Link', label: 'Delete Link', output: { kind: 'object' }, warning: HOST_WORDING.zapier.deleteWarning }],
  },
  'link.get': {
    zapier: [{ kind: 'search', key: 'get_link', noun: 'Link', label: 'Find Link by ID or Short URL', output: { kind: 'list' }, notFoundIsEmpty: true, returns: 'Returns the link, or nothing when the account has no such link.' }],
  },
  'link.find': {
    n8n: { resource: 'link', operation: 'find', action: 'Find links' },
    zapier: [
      {
        kind: 'search',
        key: 'find_link',
        noun: 'Link',
        label: 'Find Link',
        output: { kind: 'list' },
        // Zapier uses the first match; how many to return is Find Links' question.
        fixed: { limit: 10 },
        linkSearch: false,
        extraHelp: ZAPIER_UTM_HELP,
        returns: 'Returns the first matching link, or nothing when none matches.',
      },
      {
        kind: 'search',
        key: 'find_links',
        noun: 'Links',
        label: 'Find Links',
        output: { kind: 'lineItems', key: 'links', label: 'Links', countLabel: 'Number of Links Found' },
        returns: 'Returns the links as line items, to loop over, with their count.',
      },
    ],
  },
  'link.findOrCreate': {
    n8n: { resource: 'link', operation: 'findOrCreate', action: 'Find or create a link' },
    zapier: [
      {
        kind: 'create',
        key: 'find_or_create_link',
        noun: 'Link',
        label: 'Create Link If None Exists',
        output: { kind: 'object' },
        hidden: true,
        extraHelp: ZAPIER_UTM_HELP,
        searchOrCreate: {
          key: 'find_link',
          label: 'Find or Create Link',
          search: 'find_link',
          description: `${HOST_WORDING.zapier.findOrCreateFreshness} ${HOST_WORDING.zapier.sameUtmInBothHalves}`,
        },
      },
    ],
  },
  'link.findOrCreateMany': {
    n8n: { notOffered: "n8n runs it as Find or Create's Review Step (Preview or Submit): all input items are the rows of one sheet (packages/n8n-nodes-shortlink/nodes/ShortLink/review-step.ts)" },
    zapier: [
      {
        kind: 'search',
        key: 'preview_sheet',
        noun: 'Campaign Sheet',
        label: 'Preview Campaign Sheet',
        output: { kind: 'lineItems', key: 'rowResults', label: 'Row Results', countLabel: 'Number of Row Results' },
        fixed: { mode: 'preview', reviewToken: '' },
        description:
          "Checks a line-item list of campaign URLs (e.g. a sheet's rows) against your account before anything is written: per row whether its short link will be created, already exists (with the link) or would fail and why, with totals and a review token for Create Links from Preview.",
        returns: 'Returns the totals and the review token, with each row\'s verdict as line items.',
      },
      {
        kind: 'create',
        key: 'create_from_preview',
        noun: 'Campaign Sheet',
        label: 'Create Links from Preview',
        output: { kind: 'lineItems', key: 'rowResults', label: 'Row Results', countLabel: 'Number of Row Results', as: 'object' },
        fixed: { mode: 'submit' },
        description:
          "Creates the short links a Preview Campaign Sheet step said it would, for the same line items and its review token, and refuses in words when the rows or the account changed since.",
        returns: "Returns each row's result as line items with the totals.",
      },
    ],
  },
  'link.getAll': {
    n8n: { resource: 'link', operation: 'getAll', action: 'Get many links' },
    zapier: { notOffered: 'a Zap step runs for one row: the links of the account come one by one from the New Link trigger, and a list of them from Find Links or Get Campaign Report' },
  },
  'link.qrCode': {
    n8n: { resource: 'link', operation: 'qrCode', action: 'Make a QR code of a link' },
    zapier: [
      {
        kind: 'create',
        key: 'make_qr_code',
        noun: 'QR Code',
        label: 'Make QR Code',
        output: { kind: 'object' },
        returns: "Returns the link's fields and the image as a file for a later step (email attachment, Google Drive upload).",
      },
    ],
  },
  'stats.get': {
    n8n: { resource: 'stats', operation: 'get', action: 'Get link statistics' },
    zapier: [
      {
        kind: 'search',
        key: 'link_stats',
        noun: 'Link Statistics',
        label: 'Find Link Statistics',
        output: { kind: 'list' },
        fixed: { splitInto: 'none' },
        notFoundIsEmpty: true,
        returns: 'Returns one result with the lists as line items, or nothing when the account has no such link.',
      },
      {
        kind: 'search',
        key: 'daily_clicks',
        noun: 'Daily Clicks',
        label: 'Find Daily Clicks of Link',
        output: { kind: 'lineItems', key: 'days', label: 'Days', countLabel: 'Number of Days' },
        fixed: { splitInto: 'day' },
        notFoundIsEmpty: true,
        description: 'Finds how many clicks one short link got on each day, optionally between two dates and with days without clicks as 0.',
        returns: 'Returns one line item per day (date and clicks on that date), or nothing when no day matches.',
      },
    ],
  },
  'domain.getAll': {
    n8n: { resource: 'domain', operation: 'getAll', action: 'Get many domains' },
    zapier: { notOffered: 'the domains fill the Domain dropdown of the link steps (the hidden domain_list trigger); no Zap needs them as a step' },
  },
  'account.get': {
    n8n: { resource: 'account', operation: 'get', action: 'Get the account' },
    zapier: { notOffered: 'the connection already shows the account (its label is the account\'s name and email); the plan\'s quota is checked by the create steps' },
  },
  'campaign.buildUrl': {
    n8n: { notOffered: 'n8n builds a tagged URL in an expression, and Create, Find or Create and Update add the UTM parameters themselves' },
    zapier: { notOffered: "Zapier's Formatter builds a tagged URL, and Create Link, Find or Create Link and Update Link add the UTM parameters themselves" },
  },
  'report.campaign': {
    n8n: { resource: 'report', operation: 'campaign', action: 'Get a campaign report' },
    zapier: [
      {
        kind: 'search',
        key: 'campaign_report',
        noun: 'Report',
        label: 'Get Campaign Report',
        output: { kind: 'lineItems', key: 'rows', label: 'Rows', countLabel: 'Number of Rows' },
        returns: 'Returns the rows as line items (per link and day, per campaign and day, totals, or countries/devices/browsers/referrers) with the totals, and a CSV file when asked.',
      },
    ],
  },
};

/**
 * An MCP tool's name: "link" + "Find or Create" → link_find_or_create; a label that already names its
 * resource is not prefixed twice ("report" + "Campaign Report" → campaign_report).
 */
function toolName(operation: Operation): string {
  const resource = snakeCase(operation.resource);
  const label = snakeCase(operation.label);
  return `_${label}_`.includes(`_${resource}_`) ? label : `${resource}_${label}`;
}

/** The defaults: n8n by the operation's resource and action; Zapier a create (a search when it only reads); an MCP tool. */
function defaultExposure(operation: Operation): Exposure {
  const words = RESOURCE_WORDS[operation.resource];
  const many = operation.output.count === 'many';
  const step: ZapierStep = {
    kind: operation.safety.readOnly ? 'search' : 'create',
    key: snakeCase(`${operation.label} ${operation.resource}`),
    noun: words.zapier,
    label: `${operation.label} ${words.zapier}`,
    output: many ? { kind: 'lineItems', key: 'items', label: 'Items', countLabel: 'Number of Items' } : operation.safety.readOnly ? { kind: 'list' } : { kind: 'object' },
  };
  return {
    key: operation.key,
    n8n: { resource: operation.resource, operation: operation.action, action: `${operation.label} ${many ? '' : /^[aeiou]/i.test(words.noun) ? 'an ' : 'a '}${words.noun}${many && !words.noun.endsWith('s') ? 's' : ''}`.replace(/\s+/g, ' ') },
    zapier: [step],
    mcp: { tool: toolName(operation), title: operation.label.toLowerCase().includes(words.mcp.toLowerCase()) ? operation.label : `${words.mcp}: ${operation.label}` },
  };
}

export function exposureOf(operation: Operation): Exposure {
  const base = defaultExposure(operation);
  const row = EXPOSURES[operation.key] ?? {};
  const exposure: Exposure = { ...base, ...row, key: operation.key };
  // A list without an end of its own reaches agents one page at a time (their context is small).
  const form = ONE_PAGE_FORMS[operation.key];
  if (form && isOffered(exposure.mcp)) exposure.mcp = { ...exposure.mcp, form };
  return exposure;
}

const TRIGGER_EXPOSURES: Readonly<Record<string, Omit<TriggerExposure, 'key' | 'n8n' | 'mcp'>>> = {
  'trigger.newLink': {
    // Zapier's limits: 100 links a poll (it holds the runs of a larger poll), 300 requests; its first poll fills the dedupe table.
    zapier: { key: 'new_link', noun: 'Link', label: 'New Link', fixed: { startFrom: 'newLinksOnly', maxLinks: 100, maxPages: 300 } },
  },
  'trigger.linkClicks': { zapier: { key: 'link_clicks', noun: 'Link', label: 'Link Clicks' } },
  'trigger.clicksPerDay': { zapier: { key: 'clicks_per_day', noun: 'Daily Clicks', label: 'Clicks Per Day' } },
};

const NO_MCP_TRIGGERS: NotOffered = {
  notOffered: 'an agent asks when it wants to know: the same reads are tools (Get Many newest first, Statistics, Campaign Report), and MCP has no polling',
};

export function triggerExposureOf(trigger: Trigger): TriggerExposure {
  const row = TRIGGER_EXPOSURES[trigger.key];
  return {
    key: trigger.key,
    n8n: { event: trigger.event },
    zapier: row?.zapier ?? { key: snakeCase(trigger.event), noun: 'Link', label: trigger.label },
    mcp: NO_MCP_TRIGGERS,
  };
}
