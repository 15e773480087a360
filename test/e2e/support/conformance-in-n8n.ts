/**
 * The conformance table (test/conformance/cases.json) in a real n8n: the cases that can share ONE workflow
 * run on ONE demo sandbox, each as a Short Link node fed by the Manual Trigger and set to "On Error:
 * Continue", so that one execution answers them all. Chosen: every refusal that reaches the node (it changes
 * nothing), every read of the seeded links (with Find or Create that finds, Delete of a link that is not
 * there) and the creates under a slug of their own (each run's sandbox is fresh, so the slug is new). Left
 * out, by a rule each: what n8n does not offer, other accounts, another time zone, rows of days counted from
 * the fixture's fixed clock, nodes n8n flags before running, and writes or lists that other cases' writes change.
 */
import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';
import cases from '../../conformance/cases.json';
import { resolveValues, type ConformanceCase, type Fixture } from '../../conformance/support/fixtures';
import type { Outcome } from '../../conformance/support/outcome';
import { n8nOffers, n8nParameters } from '../../conformance/support/n8n-host';
import { ShortLink } from '../../../packages/n8n-nodes-shortlink/test/harness';
import { nodeItems, type ExecutionRun, type WorkflowJson } from '../../../scripts/n8n/instance';

export const TABLE = cases.cases as ConformanceCase[];

const description = new ShortLink().description;

/**
 * n8n's own check before an execution starts (WorkflowExecute.checkReadyForExecution): a required field left
 * empty, or a Link that fails the field's own pattern, marks the node in the editor, and n8n then runs no
 * node of the workflow at all. Such a case never reaches the node, so it cannot share the workflow.
 */
function n8nFlags(name: string, parameters: INodeParameters): boolean {
  const node: INode = { id: name, name, type: 'n8n-nodes-shortlink.shortLink', typeVersion: 1, position: [0, 0], parameters };
  const full = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? parameters;
  return NodeHelpers.getNodeParametersIssues(description.properties, { ...node, parameters: full }, description) !== null;
}

/**
 * Rows that depend on which days "@today" names: the fixture's clock is frozen, n8n's is not (a day apart
 * around midnight). A refusal (days the wrong way round) or an empty answer holds for any days.
 */
function countsDays(testCase: ConformanceCase): boolean {
  const usesToday = Object.values(testCase.values).some((value) => typeof value === 'string' && value.startsWith('@today'));
  return usesToday && 'records' in testCase.expect && testCase.expect.records.length > 0;
}

/** Why a case cannot join the shared workflow (its node's parameters given), or undefined when it runs there. */
export function leftOutReason(testCase: ConformanceCase, parameters: () => INodeParameters): string | undefined {
  if (!n8nOffers(testCase.operation)) return 'n8n does not offer the operation';
  if (testCase.account !== 'demo') return 'another account fixture than demo';
  if ((testCase.timeZone ?? 'UTC') !== 'UTC') return 'a time zone of its own (the workflow runs in UTC)';
  if (countsDays(testCase)) return "rows of days counted from the fixture's fixed clock";
  if (n8nFlags(testCase.name, parameters())) return 'n8n refuses the node before any node runs (an empty required field, a Link that is no ID)';
  // A refusal changes nothing, and the seeded links it names are never changed here.
  if ('error' in testCase.expect) return undefined;
  const { records } = testCase.expect;
  if (testCase.operation === 'link.update') return 'changes a seeded link other cases read';
  // A delete of a link that does not exist changes nothing; the others remove links other cases read.
  if (testCase.operation === 'link.delete' && records.some((record) => record.alreadyDeleted !== true)) return 'changes a seeded link other cases read';
  if (testCase.operation === 'link.findOrCreate' && records.some((record) => record.created !== false)) return 'creates a link for a target other cases look up';
  if (testCase.operation === 'link.getAll') return 'lists every link, which the creates here add to';
  if (testCase.operation === 'link.create' && typeof testCase.values.slug !== 'string') return 'a create under a slug the service picks';
  return undefined;
}

/** A case that runs in the shared workflow: its values for the fixture and its node's parameters. */
export interface ChosenCase {
  testCase: ConformanceCase;
  values: Record<string, unknown>;
  parameters: INodeParameters;
}

export interface Subset {
  ran: ChosenCase[];
  /** The left-out cases' names by reason. */
  leftOut: Map<string, string[]>;
}

/** The table split for the demo `fixture` ("@slug" values are its links' ids). */
export function subsetForN8n(fixture: Fixture, table: ConformanceCase[] = TABLE): Subset {
  const ran: ChosenCase[] = [];
  const leftOut = new Map<string, string[]>();
  for (const testCase of table) {
    const values = resolveValues(testCase.values, fixture);
    const parameters = () => n8nParameters(testCase.operation, values);
    const reason = leftOutReason(testCase, parameters);
    if (reason === undefined) ran.push({ testCase, values, parameters: parameters() });
    else leftOut.set(reason, [...(leftOut.get(reason) ?? []), testCase.name]);
  }
  return { ran, leftOut };
}

/**
 * The slugs and target URLs the chosen creates write that another chosen case names: must stay empty, or a
 * case would depend on whether a create ran before it (a new row in cases.json shows up here, not as a flake).
 */
export function sharedByCreates(chosen: ChosenCase[]): string[] {
  const ran = chosen.map(({ testCase }) => testCase);
  const creates = ran.filter((testCase) => testCase.operation === 'link.create' && 'records' in testCase.expect);
  const shared: string[] = [];
  for (const create of creates) {
    const written = [create.values.slug, create.values.targetUrl].filter((value): value is string => typeof value === 'string');
    const others = ran.filter((other) => other !== create).flatMap((other) => Object.values(other.values).map(String));
    shared.push(...written.filter((value) => others.some((text) => text.includes(value))).map((value) => `${create.name}: ${value}`));
  }
  return shared;
}

/** Manual Trigger → one Short Link node per case (named as the case), each continuing with an error item. */
export function conformanceWorkflow(id: string, chosen: ChosenCase[], credential: { id: string; name: string }): WorkflowJson {
  const nodes = chosen.map(({ testCase, parameters }) => ({ name: testCase.name, parameters }));
  const trigger = "When clicking 'Execute workflow'";
  return {
    id,
    name: 'Short Link: the conformance table in n8n',
    nodes: [
      { id: `${id}-trigger`, name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      ...nodes.map(({ name, parameters }, index) => ({
        id: `${id}-${index}`,
        name,
        type: 'n8n-nodes-shortlink.shortLink',
        typeVersion: 1,
        position: [300, index * 120],
        onError: 'continueRegularOutput',
        parameters,
        credentials: { shortLinkApi: credential },
      })),
    ],
    connections: { [trigger]: { main: [nodes.map(({ name }) => ({ node: name, type: 'main', index: 0 }))] } },
    // The cases' days and expiries without a zone are read in UTC, as the table's hosts read them.
    settings: { executionOrder: 'v1', timezone: 'UTC' },
    pinData: {},
  };
}

/**
 * A failed item under "On Error: Continue": the Short Link node's `{ error, details: { message,
 * description?, httpCode?, field? } }` (packages/n8n-nodes-shortlink/nodes/shared/transport/errors.ts),
 * or n8n's own `{ error }` when the node failed as a whole.
 */
function failureOf(json: Record<string, unknown>): Outcome | undefined {
  if (typeof json.error !== 'string') return undefined;
  const details = json.details as { httpCode?: unknown } | undefined;
  if (Object.keys(json).length > (details ? 2 : 1)) return undefined;
  // n8n shows a "not found" as the service's 404; the core's own lookups (a short URL) say it in words.
  return { error: json.error, notFound: String(details?.httpCode) === '404' };
}

/**
 * The case's expectation as n8n's item can show it. n8n marks a "not found" by the service's HTTP 404
 * (`details.httpCode`); a short URL the core looked up itself and did not find has no status behind it, so
 * the item says it in words only, and only the words are checked.
 */
export function expectedInN8n({ testCase, values }: ChosenCase): ConformanceCase['expect'] {
  const expected = testCase.expect;
  if ('error' in expected && expected.notFound && /^https?:\/\//.test(String(values.link))) return { error: expected.error };
  return expected;
}

/** What the node put out for its case, as the table's Outcome: its records, or the error item's sentence. */
export function outcomeInN8n(run: ExecutionRun | undefined, nodeName: string): Outcome {
  if (!run?.data.resultData.runData[nodeName]) throw new Error(`The node "${nodeName}" did not run.`);
  const items = nodeItems(run, nodeName);
  const failure = items.length === 1 ? failureOf(items[0]!.json) : undefined;
  return failure ?? { records: items.map((item) => item.json) };
}
