/**
 * Why a 403 came back. The document gives 403 two meanings (components.responses.Forbidden): the plan
 * has no API access (upgrade helps), or the `domain` is not a verified custom domain (the plan is fine).
 * Hosts give different advice for each, so the core tells them apart once.
 */
export type ForbiddenReason = 'plan' | 'domain' | 'quota';

/** The documented problem kinds (the `type` fragment, see packages/sandbox/src/problems.ts). */
const REASON_BY_KIND: Record<string, ForbiddenReason> = {
  'plan-required': 'plan',
  'domain-forbidden': 'domain',
  // The plan allows the API but its links for the period are used up (docs/api-contract.md).
  'quota-exceeded': 'quota',
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
const QUOTA_WORDS = /\b(quota|quotas|used up|links per (month|period))\b/i;
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
  if (QUOTA_WORDS.test(words)) return 'quota';
  const plan = PLAN_WORDS.test(words);
  const domain = DOMAIN_WORDS.test(words);
  if (plan === domain) return undefined;
  return plan ? 'plan' : 'domain';
}

/** Problem kinds other services use for a key they do not accept. */
const KEY_KINDS = new Set(['unauthorized', 'unauthenticated', 'invalid-key', 'invalid-api-key', 'invalid_api_key', 'invalid-token', 'invalid_token', 'invalid-credentials', 'authentication-failed', 'authentication_failed', 'authentication-required']);
const KEY_WORDS = /\b(api[ _-]?keys?|keys?|tokens?|credentials?|unauthori[sz]ed|unauthenticated|authenticat\w*)\b/i;

/**
 * Whether a 403 says the key itself is not accepted (some services answer a wrong or revoked key with 403,
 * not 401): its type names such a kind, or its words speak of the key while naming no plan and no domain.
 * The user must reconnect with a valid key then, not upgrade.
 */
export function isKeyRefusal(problem: { type?: string | undefined; title?: string | undefined; detail?: string | undefined }): boolean {
  if (typeof problem.type === 'string' && KEY_KINDS.has(kindOf(problem.type))) return true;
  if (forbiddenReasonOf(problem) !== undefined) return false;
  const words = `${problem.title ?? ''} ${problem.detail ?? ''}`.replace(HOSTNAMES, ' ');
  return KEY_WORDS.test(words) && !PLAN_WORDS.test(words) && !DOMAIN_WORDS.test(words);
}
