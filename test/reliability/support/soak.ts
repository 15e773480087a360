/**
 * The fault soak: creates, updates and deletes through one driver while the sandbox injects faults,
 * then a reconciliation against the sandbox's own state (sandbox.links), with the faults off.
 *
 * What counts (docs/guarantees.md, "Fault soak"):
 * - duplicated: a target URL that exists more than once (every create has its own target URL, no slug,
 *   so only a repeated POST can make a second one).
 * - lost: an operation reported as done that did not happen (a create whose link is missing, an update
 *   whose title is not there, a delete whose link still exists), or a create reported as failed whose
 *   link nevertheless exists although the error did not say the outcome was unknown, or that the caller
 *   cannot find afterwards with the host's own find operation.
 * - wronglyFailed: creates reported as failed whose link the service stored all the same (its answer was
 *   lost: a reset, a 502 or a cut-off body after the write). The client must find its own link before it
 *   answers (docs/guarantees.md), so the goal is 0; one whose message at least said the outcome was unknown
 *   also counts as unknownOutcome, one whose message said it failed definitely also counts as lost.
 * - unknownOutcome: creates reported with an unknown outcome (the message says the link may exist, and how
 *   to look it up). They count as failed, never as lost.
 */
import type { Link, Sandbox, FaultOptions } from '@shortlink/sandbox';
import { neverSent } from '../../../packages/core/src/http/retry-policy';
import type { LinkDriver, Outcome } from './drivers';

export interface SoakOptions {
  /** Creates to attempt; half of the created links are then updated and a third deleted. */
  creates: number;
  /** Marks this run's target URLs, so runs sharing an account do not mix. */
  tag: string;
  faults: FaultOptions;
}

export interface SoakCounts {
  attempted: number;
  succeeded: number;
  failed: number;
  lost: number;
  duplicated: number;
  unknownOutcome: number;
  /** Creates reported as failed although their link was stored. */
  wronglyFailed: number;
  /** Failed creates made good afterwards with Find or Create (as a user re-runs failed items). */
  recovered: number;
  /** Deletes reported as failed whose link is gone all the same (see the reconciliation). */
  deleteFailedButDone: number;
}

export interface SoakReport {
  counts: SoakCounts;
  /** Requests the sandbox received while the faults were on (retries included). */
  requestsUnderFaults: number;
  /** One sentence per lost or duplicated case, for the failure message. */
  problems: string[];
}

/** Faults before processing (nothing stored) and after it (stored, answer lost: reset, 502, cut-off body). */
export const DEFAULT_FAULTS: FaultOptions = {
  errorRate: 0.12,
  resetBeforeRate: 0.04,
  resetAfterRate: 0.06,
  serverErrorAfterRate: 0.05,
  brokenBodyAfterRate: 0.04,
  latencyMs: 1,
  rateLimitStormRate: 0.04,
};

export function emptyCounts(): SoakCounts {
  return { attempted: 0, succeeded: 0, failed: 0, lost: 0, duplicated: 0, unknownOutcome: 0, wronglyFailed: 0, recovered: 0, deleteFailedButDone: 0 };
}

export function soakLine(counts: SoakCounts): string {
  const { attempted, succeeded, failed, lost, duplicated, wronglyFailed } = counts;
  return `soak: attempted=${attempted} succeeded=${succeeded} failed=${failed} lost=${lost} duplicated=${duplicated} wrongly-failed=${wronglyFailed}`;
}

/**
 * A failure that leaves the outcome open: no answer came and the request may have reached the service.
 * Every host passes the core's message on, "Network error (<code>) on <method> …", so the code is read
 * from the text the user sees.
 */
export function saysOutcomeUnknown(message: string): boolean {
  if (/may have been created/.test(message)) return true;
  const match = /Network error \(([A-Z_]+)\)/.exec(message);
  return match !== null && !neverSent(match[1]!) && !/Nothing was created/.test(message);
}

function idOf(value: unknown): string | undefined {
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

export async function runSoak(driver: LinkDriver, sandbox: Sandbox, accountId: string, options: SoakOptions): Promise<SoakReport> {
  const counts = emptyCounts();
  const problems: string[] = [];
  const tally = (outcomes: Outcome<unknown>[]): void => {
    counts.attempted += outcomes.length;
    for (const outcome of outcomes) {
      if (outcome.ok) counts.succeeded++;
      else counts.failed++;
    }
  };
  const prefix = `https://soak.example/${options.tag}/`;
  const inputs = Array.from({ length: options.creates }, (_, i) => ({ targetUrl: `${prefix}${i}`, title: `soak ${options.tag} ${i}` }));

  const requestsBefore = sandbox.requests.length;
  sandbox.setFaults(options.faults);
  let created: Outcome<unknown>[] = [];
  let updates: Array<{ id: string; title: string; outcome: Outcome<unknown> }> = [];
  let deletes: Array<{ id: string; outcome: Outcome<unknown> }> = [];
  // Per failed create: its Find or Create result, or the last failure when none succeeded.
  const recovery = new Map<number, Outcome<unknown>>();
  const targetsOf = (links: Link[]): Map<string, Link[]> => {
    const byTarget = new Map<string, Link[]>();
    for (const link of links) if (link.targetUrl.startsWith(prefix)) byTarget.set(link.targetUrl, [...(byTarget.get(link.targetUrl) ?? []), link]);
    return byTarget;
  };
  let afterFirstPass = new Map<string, Link[]>();
  try {
    created = await driver.createLinks(inputs);
    tally(created);
    const createdIds = created.map((outcome) => (outcome.ok ? idOf(outcome.value) : undefined));
    if (created.some((outcome, i) => outcome.ok && createdIds[i] === undefined)) problems.push('a create succeeded without an id');

    const live = createdIds.flatMap((id, i) => (id === undefined ? [] : [{ id, i }]));
    const toUpdate = live.filter((_, n) => n % 2 === 0).map(({ id, i }) => ({ id, title: `updated ${options.tag} ${i}` }));
    const updated = await driver.updateTitles(toUpdate);
    tally(updated);
    updates = toUpdate.map((change, n) => ({ ...change, outcome: updated[n]! }));

    const toDelete = live.filter((_, n) => n % 3 === 1).map(({ id }) => id);
    const deleted = await driver.deleteLinks(toDelete);
    tally(deleted);
    deletes = toDelete.map((id, n) => ({ id, outcome: deleted[n]! }));
    // The server's state as the first pass left it: what the failed creates really did.
    afterFirstPass = targetsOf(sandbox.links(accountId));

    // Recovery as a user re-runs the failed items, faults still on: Find or Create finds the link an
    // unknown-outcome create did make instead of making a second one. At most three rounds.
    let pending = created.flatMap((outcome, i) => (outcome.ok ? [] : [i]));
    for (let round = 0; round < 3 && pending.length > 0; round++) {
      const outcomes = await driver.findOrCreate(pending.map((i) => inputs[i]!));
      tally(outcomes);
      pending.forEach((i, n) => recovery.set(i, outcomes[n]!));
      pending = pending.filter((_, n) => !outcomes[n]!.ok);
    }
  } finally {
    sandbox.setFaults(undefined);
  }
  const requestsUnderFaults = sandbox.requests.length - requestsBefore;

  // ---- reconciliation with the server's own state ----
  const mine = sandbox.links(accountId).filter((link) => link.targetUrl.startsWith(prefix));
  const byTarget = new Map<string, Link[]>();
  for (const link of mine) byTarget.set(link.targetUrl, [...(byTarget.get(link.targetUrl) ?? []), link]);
  const byId = new Map(mine.map((link) => [link.id, link]));
  // A delete reported as failed may still have happened (processed, then the answer was lost and every
  // retry failed too): such a link may be gone. That is not a dropped operation; the caller was told
  // the delete failed, and repeating it is harmless.
  const deleteTried = new Set(deletes.map((d) => d.id));

  for (const [target, links] of byTarget) {
    if (links.length > 1) {
      counts.duplicated += links.length - 1;
      problems.push(`duplicated: ${target} exists ${links.length} times`);
    }
  }

  for (let i = 0; i < inputs.length; i++) {
    const outcome = created[i]!;
    const existing = byTarget.get(inputs[i]!.targetUrl) ?? [];
    if (outcome.ok) {
      const id = idOf(outcome.value)!;
      if (!deleteTried.has(id) && !byId.has(id)) {
        counts.lost++;
        problems.push(`lost: create ${i} reported id ${id}, which does not exist`);
      }
      continue;
    }
    // What the failure did, judged on the state before any recovery: nothing, or (unknown outcome) one link.
    const madeAnyway = afterFirstPass.get(inputs[i]!.targetUrl) ?? [];
    if (madeAnyway.length > 0) {
      counts.wronglyFailed++;
      problems.push(`wrongly failed: create ${i} was reported as failed ("${outcome.message}") but its link ${madeAnyway[0]!.id} was stored`);
      if (!saysOutcomeUnknown(outcome.message)) {
        counts.lost++;
        problems.push(`lost: create ${i} was reported as a definite failure ("${outcome.message}") but its link ${madeAnyway[0]!.id} exists`);
      } else counts.unknownOutcome++;
    }
    const retried = recovery.get(i);
    if (retried?.ok) {
      // Recovered: the link Find or Create answered with exists (a second one would count as duplicated).
      const id = idOf(retried.value);
      if (id === undefined || !byId.has(id)) {
        counts.lost++;
        problems.push(`lost: create ${i} was recovered as ${id ?? '(no id)'}, which does not exist`);
      } else counts.recovered++;
      continue;
    }
    if (existing.length === 0) continue; // still failed, and really nothing was created
    // Still failed after recovery, yet a link exists (an unknown outcome): the caller must find it.
    const lastMessage = retried && !retried.ok ? retried.message : outcome.message;
    if (madeAnyway.length === 0 && !saysOutcomeUnknown(lastMessage)) {
      counts.lost++;
      problems.push(`lost: create ${i} recovery failed definitely ("${lastMessage}") but link ${existing[0]!.id} exists`);
      continue;
    }
    const found = await driver.findByTargetUrl(inputs[i]!.targetUrl);
    if (!found.ok || found.value.map((link) => idOf(link)).join() !== existing.map((link) => link.id).join()) {
      counts.lost++;
      problems.push(`lost: create ${i} had an unknown outcome and its link ${existing[0]!.id} cannot be found by its target URL`);
    }
  }

  for (const update of updates) {
    if (!update.outcome.ok || deleteTried.has(update.id)) continue;
    const link = byId.get(update.id);
    if (!link || link.title !== update.title) {
      counts.lost++;
      problems.push(`lost: update of ${update.id} reported done but the title is ${link ? `"${link.title}"` : 'gone'}`);
    }
  }

  for (const del of deletes) {
    if (!del.outcome.ok && !byId.has(del.id)) counts.deleteFailedButDone++;
    if (del.outcome.ok && byId.has(del.id)) {
      counts.lost++;
      problems.push(`lost: delete of ${del.id} reported done but the link still exists`);
    }
  }

  return { counts, problems, requestsUnderFaults };
}
