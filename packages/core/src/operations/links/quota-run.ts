/**
 * The plan-quota guard of a run as the create operations use it: its state lives in the run's cache (n8n:
 * the execution; Zapier: the connection's z.cache), so every item of the run shares one reading of GET /me.
 */
import { DeadlineError, PlanQuotaError, UnknownOutcomeError } from '../../errors';
import type { ShortLinkClient } from '../../client';
import type { CreateGate } from '../../creating/find-or-create';
import { QUOTA_MEMORY_MINUTES, QuotaGuard, type QuotaPolicy, type QuotaState } from '../../creating/quota-guard';
import type { FormField } from '../../forms/form-fields';
import type { FormReader } from '../../forms/form-values';
import type { OperationContext } from '../operation';
import { createMemoryRunCache } from '../memory-run-cache';

const CACHE_KEY = 'linkQuota';
/** Rows of the run that Find or Create answered with a link it already had (they need none of the quota). */
const FOUND_KEY = 'rowsWithLink';

/**
 * Find or Create found the row's link: one row fewer that may need a new one. A rerun of a stopped sheet
 * finds its done rows first, so its pre-flight counts only the rows from the first missing link on.
 */
export async function countRowWithLink(context: OperationContext): Promise<void> {
  if (!context.cache || (context.runSize ?? 1) <= 1) return;
  await context.cache.set(FOUND_KEY, Number((await context.cache.get(FOUND_KEY)) ?? 0) + 1, QUOTA_MEMORY_MINUTES * 60);
}

export const QUOTA_POLICY_FIELD: FormField = {
  key: 'quotaPolicy',
  label: 'When the Link Quota Runs Out',
  kind: 'choice',
  group: 'options',
  default: 'createWhatFits',
  manyRowsOnly: true,
  choices: [
    { value: 'createWhatFits', label: 'Create What Fits', help: 'Rows beyond the quota get a clear error and are not sent; rerun them later' },
    { value: 'stopBeforeCreating', label: 'Stop Before Creating Anything', help: 'If the run has more rows than links left, create none' },
  ],
  help: 'Before the first new link of a run, the plan\'s links left this month are read once. Choose what happens when the run has more rows than that.',
};

/**
 * A gate for one create: takes a link of the quota before, gives it back when nothing was stored.
 * `linksPerRow`: links a row of the run may make (2 with a QR sibling), for the pre-flight's count.
 */
export function quotaGate(client: ShortLinkClient, form: FormReader, context: OperationContext, onNotice: (notice: string) => void, linksPerRow = 1): CreateGate {
  const cache = context.cache ?? createMemoryRunCache(context.now);
  const guard = new QuotaGuard(
    {
      load: async () => (await cache.get(CACHE_KEY)) as QuotaState | undefined,
      // Long enough for a bulk run's steps, short enough that a raised quota is seen soon.
      save: (state) => cache.set(CACHE_KEY, state, QUOTA_MEMORY_MINUTES * 60),
    },
    () => client.getAccount(),
    context.now,
  );
  const policy = form.choice<QuotaPolicy>('quotaPolicy') ?? 'createWhatFits';
  return {
    async before() {
      // Only a run of many rows counts rows found (a Zapier step or an agent call is one: no cache read).
      const rowsWithLink = (context.runSize ?? 1) > 1 ? Number((await cache.get(FOUND_KEY)) ?? 0) : 0;
      const notice = await guard.beforeCreate(Math.max(1, ((context.runSize ?? 1) - rowsWithLink) * linksPerRow), policy, rowsWithLink);
      if (notice) onNotice(notice);
    },
    failed: (error) => guard.afterFailedCreate(error, nothingStored(error)),
  };
}

/** Whether a failed create certainly stored nothing (an unknown outcome keeps its link of the quota). */
function nothingStored(error: unknown): boolean {
  if (error instanceof PlanQuotaError) return false;
  if (error instanceof UnknownOutcomeError) return false;
  return !(error instanceof DeadlineError && error.outcomeUnknown);
}
