/**
 * Why a 403 came back. The document gives 403 two meanings (components.responses.Forbidden): the plan
 * has no API access (upgrade helps), or the `domain` is not a verified custom domain (the plan is fine).
 * Hosts give different advice for each, so the core tells them apart once.
 */
export type ForbiddenReason = 'plan' | 'domain';

/** The documented problem kinds (the `type` fragment, see packages/sandbox/src/problems.ts). */
const REASON_BY_KIND: Record<string, ForbiddenReason> = {
  'plan-required': 'plan',
  'domain-forbidden': 'domain',
};

/** The kind a type URI names: its fragment (`…/errors#plan-required`), else its last path segment. */
function kindOf(type: string): string {
  const hash = type.indexOf('#');
  const tail = hash >= 0 ? type.slice(hash + 1) : (type.replace(/\/+$/, '').split('/').pop() ?? '');
  return tail.trim().toLowerCase();
}

// Words of the two cases; hostnames are removed first so that `plan.example.com` names no plan.
const PLAN_WORDS = /\b(plan|plans|upgrade|subscription)\b/i;
const DOMAIN_WORDS = /\b(domain|domains|hostname)\b/i;
const HOSTNAMES = /\b[a-z0-9-]+(\.[a-z0-9-]+)+\b/gi;

/**
 * The reason of a 403 from its problem `type`; only when the type is not one of the documented kinds
 * (another base, `about:blank`, none) do the title and detail words decide. Both or neither → undefined.
 */
export function forbiddenReasonOf(problem: { type?: string | undefined; title?: string | undefined; detail?: string | undefined }): ForbiddenReason | undefined {
  if (typeof problem.type === 'string') {
    const known = REASON_BY_KIND[kindOf(problem.type)];
    if (known) return known;
  }
  const words = `${problem.title ?? ''} ${problem.detail ?? ''}`.replace(HOSTNAMES, ' ');
  const plan = PLAN_WORDS.test(words);
  const domain = DOMAIN_WORDS.test(words);
  if (plan === domain) return undefined;
  return plan ? 'plan' : 'domain';
}
