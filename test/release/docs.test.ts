/**
 * The user guides and the examples stay true to what ships: every example file is listed in the README,
 * the marketer examples leave the Google and Slack accounts to the user with a note saying what to set, and
 * every operation, trigger and field label the guides name (docs/n8n.md, docs/zapier.md) exists in the
 * built n8n node's description or the Zapier app's definition — read from them, not from a list here.
 * The resume pattern ("If a bulk run stops halfway") is in both package READMEs, its example is set up as
 * it says, and the messages it quotes are the ones the core's quota guard gives.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import zapierApp from '../../packages/zapier/src';
import { QuotaGuard, type QuotaPolicy, type QuotaState } from '../../packages/core/src/creating/quota-guard';
import type { Account } from '../../packages/core/src/types';
import { ForbiddenError } from '../../packages/core/src/errors';
import { EXAMPLE_FOLDERS } from '../../scripts/n8n/examples';

const root = resolve(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');

// ---------------------------------------------------------------------------------------------------------
// The guides' tables

/** The rows of every table in the part of a Markdown file under `## heading`, as objects by column header. */
function tablesUnder(markdown: string, heading: string): Array<Record<string, string>> {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`no section "## ${heading}"`);
  const rows: Array<Record<string, string>> = [];
  let header: string[] | undefined;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = line.slice(1, -1).split('|').map((cell) => cell.trim());
    if (!header) header = cells;
    else if (!cells.every((cell) => /^-+$/.test(cell))) rows.push(Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])));
  }
  return rows;
}

/** `**Link → Create**` → 'Link → Create': the bold names of a table's first column. */
const boldNames = (cell: string) => [...cell.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]!);

// ---------------------------------------------------------------------------------------------------------
// The n8n node, as built (npm test builds before jest runs)

const DIST = join(root, 'packages', 'n8n-nodes-shortlink', 'dist', 'nodes');
function builtDescription(file: string, exportName: string): INodeTypeDescription {
  const path = join(DIST, file);
  if (!existsSync(path)) throw new Error(`${relative(root, path)} is missing: run \`npm run build -w n8n-nodes-shortlink\` first.`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built node, as n8n loads it
  const NodeClass = require(path)[exportName] as new () => { description: INodeTypeDescription };
  return new NodeClass().description;
}
const node = builtDescription('ShortLink/ShortLink.node.js', 'ShortLink');
const trigger = builtDescription('ShortLinkTrigger/ShortLinkTrigger.node.js', 'ShortLinkTrigger');

type Choice = INodePropertyOptions;
const choicesOf = (property: INodeProperties | undefined) => (property?.options ?? []) as Choice[];
const shows = (property: INodeProperties, key: string, value: string) => {
  const allowed = property.displayOptions?.show?.[key];
  return allowed === undefined || allowed.includes(value);
};

/** The value of `Resource → Operation` in the node (e.g. 'Link → Find or Create'), or a reason. */
function n8nOperation(resourceName: string, operationName: string): { resource: string; operation: string } | string {
  const resource = choicesOf(node.properties.find((p) => p.name === 'resource')).find((choice) => choice.name === resourceName);
  if (!resource) return `no resource "${resourceName}"`;
  const operations = node.properties.find((p) => p.name === 'operation' && shows(p, 'resource', String(resource.value)));
  const operation = choicesOf(operations).find((choice) => choice.name === operationName);
  if (!operation) return `no operation "${operationName}" on ${resourceName}`;
  return { resource: String(resource.value), operation: String(operation.value) };
}

/** The trigger event called `eventName`, or undefined. */
const n8nEvent = (eventName: string) => choicesOf(trigger.properties.find((p) => p.name === 'event')).find((choice) => choice.name === eventName);

/** Does a field path such as 'UTM Parameters → Source' exist among these properties? */
function hasFieldPath(properties: INodeProperties[], path: string[]): boolean {
  const [first, ...rest] = path;
  const property = properties.find((p) => p.displayName === first);
  if (!property) return false;
  if (rest.length === 0) return true;
  const nested = (property.options ?? []).flatMap((option) =>
    'values' in option ? [{ displayName: (option as INodePropertyCollection).displayName, options: (option as INodePropertyCollection).values } as INodeProperties] : [option as INodeProperties],
  );
  return hasFieldPath(nested, rest);
}

/** What is wrong with one recipe row of docs/n8n.md naming a Short Link node, or null. */
function problemWithN8nStep(step: string, field: string): string | null {
  const parts = step.split(' → ');
  let properties: INodeProperties[];
  if (parts[0] === 'Short Link Trigger') {
    const event = n8nEvent(parts[1] ?? '');
    if (!event) return `the trigger has no event "${parts[1]}"`;
    properties = trigger.properties.filter((p) => shows(p, 'event', String(event.value)));
  } else {
    const found = n8nOperation(parts[1] ?? '', parts[2] ?? '');
    if (typeof found === 'string') return found;
    properties = node.properties.filter((p) => shows(p, 'resource', found.resource) && shows(p, 'operation', found.operation));
  }
  if (field === '—') return null;
  return hasFieldPath(properties, field.split(' → ')) ? null : `${step} has no field "${field}"`;
}

// ---------------------------------------------------------------------------------------------------------
// The Zapier app

interface ZapierField {
  key: string;
  label?: string;
}
interface ZapierOperation {
  key: string;
  display: { label: string; hidden?: boolean };
  operation: { inputFields?: Array<ZapierField | ((...args: never[]) => unknown)> };
}
const app = zapierApp as unknown as Record<'triggers' | 'searches' | 'creates', Record<string, ZapierOperation>> & {
  searchOrCreates: Record<string, { display: { label: string }; search: string; create: string }>;
};
const labelsOf = (operation: ZapierOperation | undefined) =>
  (operation?.operation.inputFields ?? []).filter((field): field is ZapierField => typeof field !== 'function').map((field) => field.label);

/** Every event the Zap editor offers, by label, with the input field labels its step shows. */
function zapierEvents(): Map<string, { kind: string; labels: Array<string | undefined> }> {
  const events = new Map<string, { kind: string; labels: Array<string | undefined> }>();
  for (const kind of ['triggers', 'searches', 'creates'] as const) {
    for (const operation of Object.values(app[kind])) {
      if (!operation.display.hidden) events.set(operation.display.label, { kind, labels: labelsOf(operation) });
    }
  }
  // A search-or-create step shows the search's fields and, once its box is ticked, the create's.
  for (const pair of Object.values(app.searchOrCreates)) {
    events.set(pair.display.label, { kind: 'searchOrCreates', labels: [...labelsOf(app.searches[pair.search]), ...labelsOf(app.creates[pair.create])] });
  }
  return events;
}
const zapier = zapierEvents();

function problemWithZapierStep(step: string, fields: string): string | null {
  const event = zapier.get(step.replace(/^Short Link → /, ''));
  if (!event) return `the app has no event "${step}"`;
  if (fields === '—') return null;
  const missing = fields.split(', ').filter((field) => !event.labels.includes(field));
  return missing.length === 0 ? null : `${step} has no field ${missing.map((field) => `"${field}"`).join(', ')}`;
}

// ---------------------------------------------------------------------------------------------------------

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => (statSync(join(folder, name)).isDirectory() ? filesUnder(join(folder, name)) : [join(folder, name)]));
}

describe('the examples', () => {
  const exampleFiles = [join(root, 'examples'), ...EXAMPLE_FOLDERS]
    .filter((folder, index, all) => all.indexOf(folder) === index && existsSync(folder))
    .flatMap(filesUnder)
    .map((file) => relative(root, file))
    .filter((file, index, all) => all.indexOf(file) === index);

  it('are found', () => {
    expect(exampleFiles).toEqual(expect.arrayContaining(['examples/campaign-sheet.csv', 'examples/n8n/campaign-sheet.json']));
  });

  it.each(exampleFiles)('%s is listed in the README with a line saying what it does', (file) => {
    const line = readme.split('\n').find((text) => text.startsWith('- ') && text.includes(`](${file})`));
    expect(line).toMatch(new RegExp(`^- \\[\`${file.replace(/[.]/g, '\\.')}\`\\]\\(${file.replace(/[.]/g, '\\.')}\\) — \\S.{20,}`));
  });

  const marketerExamples = exampleFiles
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file, workflow: JSON.parse(read(file)) as { nodes: Array<{ name: string; type: string; credentials?: object; parameters: Record<string, unknown> }> } }))
    .filter(({ workflow }) => workflow.nodes.some((n) => /\.(googleSheets|slack)$/.test(n.type)));

  it('six use Google Sheets or Slack', () => {
    expect(marketerExamples.map(({ file }) => file).sort()).toEqual(
      [
        'examples/n8n/campaign-sheet.json',
        'examples/n8n/campaign-sheet-review.json',
        'examples/n8n/new-link-to-slack.json',
        'examples/n8n/weekly-click-report.json',
        'examples/n8n/weekly-campaign-report-sheet.json',
        'examples/n8n/daily-top-links-slack.json',
      ].sort(),
    );
  });

  it.each(marketerExamples)('$file leaves Google and Slack accounts to the user, and its note names every node to set', ({ workflow }) => {
    const accounts = workflow.nodes.filter((n) => /\.(googleSheets|slack)$/.test(n.type));
    expect(accounts.filter((n) => n.credentials !== undefined).map((n) => n.name)).toEqual([]);
    const notes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote').map((n) => String(n.parameters.content));
    const toSet = workflow.nodes.filter((n) => /\.(googleSheets|slack)$/.test(n.type) || n.type.startsWith('n8n-nodes-shortlink.'));
    expect(toSet.filter((n) => !notes.some((note) => note.includes(`**${n.name}**`))).map((n) => n.name)).toEqual([]);
  });
});

describe('QR codes are found', () => {
  it('in the README, in an example and in the nodes panel\'s search words of the Short Link node', () => {
    expect(readme).toMatch(/QR code/);
    const examples = EXAMPLE_FOLDERS.filter((folder) => existsSync(folder)).flatMap((folder) => readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => read(relative(root, join(folder, name)))));
    expect(examples.some((text) => /"alsoQrCode": true|"operation": "qrCode"/.test(text))).toBe(true);
    const codex = JSON.parse(read('packages/n8n-nodes-shortlink/nodes/ShortLink/ShortLink.node.json')) as { alias: string[] };
    expect(codex.alias).toEqual(expect.arrayContaining(['QR code']));
  });
});

describe('the examples and n8n 3.0', () => {
  // n8n 3.0 removes the Function, Function Item and Item Lists nodes, `$getPairedItem` and Execute Workflow's
  // "run once for each item" mode (n8n-docs, "n8n 3.0 breaking changes"): no example may use them.
  const REMOVED_NODES = ['n8n-nodes-base.function', 'n8n-nodes-base.functionItem', 'n8n-nodes-base.itemLists'];
  const examples = EXAMPLE_FOLDERS.filter((folder) => existsSync(folder)).flatMap((folder) =>
    readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => join(folder, name)),
  );

  /** What an example uses that n8n 3.0 removes. */
  function removedIn3(text: string): string[] {
    const workflow = JSON.parse(text) as { nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }> };
    return [
      ...workflow.nodes.filter((n) => REMOVED_NODES.includes(n.type)).map((n) => `${n.name}: the ${n.type} node`),
      ...(text.includes('$getPairedItem') ? ['$getPairedItem'] : []),
      ...workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.executeWorkflow' && n.parameters.mode === 'each').map((n) => `${n.name}: Execute Workflow once for each item`),
    ];
  }

  it.each(examples.map((file) => relative(root, file)))('%s uses nothing n8n 3.0 removes', (file) => {
    expect(removedIn3(read(file))).toEqual([]);
  });

  it('the check finds each removed part', () => {
    const workflow = {
      nodes: [
        { name: 'Old code', type: 'n8n-nodes-base.function', parameters: {} },
        { name: 'Lists', type: 'n8n-nodes-base.itemLists', parameters: {} },
        { name: 'Each', type: 'n8n-nodes-base.executeWorkflow', parameters: { mode: 'each' } },
        { name: 'Paired', type: 'n8n-nodes-base.set', parameters: { value: '={{ $getPairedItem() }}' } },
      ],
    };
    expect(removedIn3(JSON.stringify(workflow))).toEqual([
      'Old code: the n8n-nodes-base.function node',
      'Lists: the n8n-nodes-base.itemLists node',
      '$getPairedItem',
      'Each: Execute Workflow once for each item',
    ]);
  });
});

describe('docs/n8n.md', () => {
  const guide = read('docs/n8n.md');

  it('says what every operation and trigger event is for', () => {
    const named = tablesUnder(guide, 'What each operation is for').flatMap((row) => boldNames(row['In the node']!));
    const operations = choicesOf(node.properties.find((p) => p.name === 'resource')).flatMap((resource) =>
      choicesOf(node.properties.find((p) => p.name === 'operation' && shows(p, 'resource', String(resource.value)))).map(
        (operation) => `${resource.name} → ${operation.name}`,
      ),
    );
    const events = choicesOf(trigger.properties.find((p) => p.name === 'event')).map((event) => `Short Link Trigger → ${event.name}`);
    expect([...named].sort()).toEqual([...operations, ...events].sort());
  });

  const steps = tablesUnder(guide, 'Recipes').filter((row) => row['Node → operation']!.startsWith('Short Link'));

  it('has recipes with Short Link steps', () => {
    expect(steps.length).toBeGreaterThanOrEqual(8);
  });

  it.each(steps.map((row) => [row['Node → operation']!, row.Field!]))('%s: %s exists in the built node', (step, field) => {
    expect(problemWithN8nStep(step, field)).toBeNull();
  });

  it('the checks find a wrong operation, event and field', () => {
    expect(problemWithN8nStep('Short Link → Link → Shorten', '—')).toMatch(/no operation/);
    expect(problemWithN8nStep('Short Link Trigger → New Click', '—')).toMatch(/no event/);
    expect(problemWithN8nStep('Short Link → Link → Find or Create', 'UTM Parameters → Channel')).toMatch(/no field/);
    expect(problemWithN8nStep('Short Link → Link → Get Many', 'Target URL')).toMatch(/no field/);
  });
});

describe('the n8n guides match the forms', () => {
  /** n8n's own screens and settings the guides lead through (not fields of our nodes). */
  const N8N_SCREENS = ['Settings', 'Workflows', 'Credential', 'On Error'];
  const everyProperty = [...node.properties, ...trigger.properties];

  /** What is wrong with a bold path such as **Additional Fields → Also Make a QR Code**, or null. */
  function problemWithPath(path: string): string | null {
    const parts = path.split(' → ');
    if (N8N_SCREENS.includes(parts[0]!)) return null;
    if (parts[0] === 'Short Link Trigger') return n8nEvent(parts[1] ?? '') ? null : `the trigger has no event "${parts[1]}"`;
    if (parts.length === 2 && typeof n8nOperation(parts[0]!, parts[1]!) !== 'string') return null;
    if (hasFieldPath(everyProperty, parts)) return null;
    // A field and one of its choices: **Output → One Item per Day**.
    const field = everyProperty.filter((p) => p.displayName === parts[0] && (p.type === 'options' || p.type === 'multiOptions'));
    if (parts.length === 2 && field.some((p) => choicesOf(p).some((choice) => choice.name === parts[1]))) return null;
    return `no field, choice, operation or event "${path}" in the built nodes`;
  }

  const guides = ['docs/n8n.md', 'README.md', 'packages/n8n-nodes-shortlink/README.md'];
  // Bold text, paired left to right; the bold spans that are paths (a path may sit in parentheses of a sentence).
  const paths = guides.flatMap((file) =>
    [...read(file).matchAll(/\*\*([^*\n]+?)\*\*/g)]
      .map((m) => m[1]!.replace(/^.*\(|\)\.?$/g, '').trim())
      .filter((text) => / → /.test(text) && !/^→|→$|`/.test(text))
      .map((path) => [file, path] as const),
  );

  it('name paths of the forms', () => {
    expect(paths.length).toBeGreaterThan(15);
  });

  it.each(paths)('%s: **%s** is on the forms', (_file, path) => {
    expect(problemWithPath(path)).toBeNull();
  });

  it('the check finds a path that is not on the forms (the QR option is under Additional Fields, not Options)', () => {
    expect(problemWithPath('Options → Also Make a QR Code')).toMatch(/no field/);
    expect(problemWithPath('Additional Fields → Also Make a QR Code')).toBeNull();
    expect(problemWithPath('Output → One Item per Day')).toBeNull();
  });
});

describe('docs/zapier.md', () => {
  const guide = read('docs/zapier.md');

  it('says what every visible trigger, search and action is for', () => {
    const named = tablesUnder(guide, 'What each trigger and action is for').flatMap((row) => boldNames(row['In the Zap editor']!).slice(0, 1));
    const offered = [...zapier.entries()].filter(([, event]) => event.kind !== 'searchOrCreates').map(([label]) => label);
    expect([...named].sort()).toEqual(offered.sort());
  });

  const steps = tablesUnder(guide, 'Recipes').filter((row) => row['App → event']!.startsWith('Short Link →'));

  it('has recipes with Short Link steps', () => {
    expect(steps.length).toBeGreaterThanOrEqual(6);
  });

  it.each(steps.map((row) => [row['App → event']!, row.Field!]))('%s: %s exists in the app', (step, field) => {
    expect(problemWithZapierStep(step, field)).toBeNull();
  });

  it('the checks find a wrong event and field', () => {
    expect(problemWithZapierStep('Short Link → Shorten Link', '—')).toMatch(/no event/);
    expect(problemWithZapierStep('Short Link → Find or Create Link', 'UTM Channel')).toMatch(/no field "UTM Channel"/);
  });
});

describe('packages/zapier/README.md', () => {
  const zapierReadme = read('packages/zapier/README.md');

  it('its table names every trigger, search and create of the app', () => {
    const tableKeys = new Set(zapierReadme.split('\n').filter((line) => line.startsWith('|')).flatMap((line) => [...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])));
    const keys = (['triggers', 'searches', 'creates'] as const).flatMap((kind) => Object.keys(app[kind]));
    expect(keys.filter((key) => !tableKeys.has(key))).toEqual([]);
  });

  it('starts the sandbox alone (npm start is the n8n playground) and invokes every visible step', () => {
    expect(zapierReadme).toContain('npm run sandbox -- --port 8787');
    expect(zapierReadme).not.toMatch(/npm start -- --port 8787/);
    const invoked = new Set([...zapierReadme.matchAll(/zapier-platform invoke (?:trigger|create|search) ([a-z_]+)/g)].map((m) => m[1]));
    const visible = (['triggers', 'searches', 'creates'] as const).flatMap((kind) => Object.values(app[kind]).filter((operation) => !operation.display.hidden).map((operation) => operation.key));
    expect(visible.filter((key) => !invoked.has(key))).toEqual([]);
  });
});

describe('the resume pattern', () => {
  const HEADING = 'If a bulk run stops halfway (plan quota, time limit, an error): rerun it';
  const sectionOf = (path: string) => read(path).split(/^## /m).find((part) => part.startsWith(`${HEADING}\n`));
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  it.each(['packages/n8n-nodes-shortlink/README.md', 'packages/zapier/README.md'])('%s has the section', (path) => {
    expect(sectionOf(path)).toBeDefined();
  });

  it('the n8n example it names sets the quota choice and lets refused rows out by the error output', () => {
    const section = sectionOf('packages/n8n-nodes-shortlink/README.md')!;
    const file = /\(\.\.\/\.\.\/(examples\/n8n\/[\w-]+\.json)\)/.exec(section)?.[1];
    expect(file).toBe('examples/n8n/campaign-sheet.json');
    const workflow = JSON.parse(read(file!)) as { nodes: Array<{ name: string; type: string; onError?: string; parameters: Record<string, unknown> }>; connections: Record<string, { main: unknown[][] }> };
    const shortLink = workflow.nodes.filter((n) => n.type === 'n8n-nodes-shortlink.shortLink');
    expect(shortLink.map((n) => [n.parameters.operation, (n.parameters.additionalFields as Record<string, unknown>)?.quotaPolicy, n.onError])).toEqual([
      ['findOrCreate', 'createWhatFits', 'continueErrorOutput'],
    ]);
    expect(workflow.connections[shortLink[0]!.name]!.main[1]).toHaveLength(1);
  });

  /** The guard of one run on an account with `used` of `quota` links used this month. */
  function guardOf(quota: number, used: number, now: () => number = Date.now) {
    let state: QuotaState | undefined;
    const account = { plan: { linkQuota: quota }, usage: { links: used } } as unknown as Account;
    return new QuotaGuard({ load: async () => state, save: async (next) => void (state = next) }, async () => account, now);
  }
  async function refusal(quota: number, used: number, rows: number, policy: QuotaPolicy): Promise<string> {
    const guard = guardOf(quota, used);
    for (let row = 0; row < rows; row++) {
      try {
        await guard.beforeCreate(rows, policy);
      } catch (error) {
        return (error as Error).message;
      }
    }
    throw new Error('no row was refused');
  }

  it("quotes the core's words for both choices, with the numbers of its example", async () => {
    const section = flat(sectionOf('packages/n8n-nodes-shortlink/README.md')!);
    // 600 rows, 420 links left of 1000: Create What Fits refuses row 421, Stop Before Creating Anything refuses the first.
    expect(section).toContain(`*${await refusal(1000, 580, 600, 'createWhatFits')}*`);
    expect(section).toContain(`*${await refusal(1000, 580, 600, 'stopBeforeCreating')}`.replace(/ Run fewer rows.*$/, ''));
  });

  it("quotes the words of a Zapier step after the service refused a link for the quota, with the example's time", async () => {
    const section = flat(sectionOf('packages/zapier/README.md')!);
    // One-row runs (Zapier steps) on one cache: the service refuses one at 14:05 UTC, the next step is told unsent.
    const guard = guardOf(1000, 1000, () => Date.parse('2026-11-27T14:05:00Z'));
    await guard.beforeCreate(1, 'createWhatFits');
    await guard.afterFailedCreate(new ForbiddenError({ title: 'Link quota exceeded', message: 'used up', status: 403, reason: 'quota' }), false);
    const told = await guard.beforeCreate(1, 'createWhatFits').then(
      () => 'sent',
      (error: Error) => error.message,
    );
    expect(section).toContain(`*${told.replace(/ Rerun it next month.*$/, '')}*`);
  });
});
