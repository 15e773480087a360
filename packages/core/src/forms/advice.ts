/**
 * What the user can do about an error, in one sentence, for hosts that show a message and a description
 * (n8n). Zapier has error classes for the same two cases (ExpiredAuthError: reconnect; the plan message).
 * The service's words stay as they are; this only adds the way out.
 */
import { AuthenticationError, ForbiddenError } from '../errors';

export const RECONNECT_ADVICE =
  'Check the API key of the credential: a wrong, revoked or deleted key needs a new one (dashboard, section "API"); enter it and reconnect.';
export const UPGRADE_ADVICE = 'API access needs the business plan or higher: upgrade the plan of this account, then try again.';
export const QUOTA_ADVICE =
  "The plan's links for this month are used up: links already made are kept. Wait for the next month or raise the plan's quota, then rerun — Find or Create continues without making any link twice.";
export const DOMAIN_ADVICE = 'Pick a verified custom domain of this account, or leave Domain empty for the default domain.';

/** The advice for an error (401, or 403 for a refused key: reconnect; 402, or 403 for the plan: upgrade), or undefined. */
export function adviceFor(error: unknown): string | undefined {
  if (error instanceof AuthenticationError) return RECONNECT_ADVICE;
  if (error instanceof ForbiddenError) {
    if (error.reason === 'plan') return UPGRADE_ADVICE;
    if (error.reason === 'domain') return DOMAIN_ADVICE;
    if (error.reason === 'quota') return QUOTA_ADVICE;
  }
  return undefined;
}
