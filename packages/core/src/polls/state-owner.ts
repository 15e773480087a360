/**
 * A polling trigger's state is only valid for the account and service it was made with: a mark taken on
 * one account, read against another, turns that account's whole history into "new" links. So the state
 * records its owner: the base URL, a fingerprint of the credential (never the key itself) and the account
 * id from GET /me. Any trigger event (new links, clicks) keeps its state behind one of these.
 */
import { fingerprint64 } from '../basics/fingerprint';

export interface StateOwner {
  /** The service's base URL, normalised (no trailing slash). */
  baseUrl: string;
  /** A fingerprint of the API key: tells a changed credential apart without keeping the key. */
  credential: string;
  /** The account id GET /me answered when the state was bound (absent when /me named none). */
  account?: string;
}

export interface CurrentOwner {
  baseUrl: string;
  credential: string;
  /** GET /me's account id; asked only when the credential changed or the state has no owner yet. */
  whoAmI: () => Promise<string | undefined>;
}

export interface OwnerCheck {
  owner: StateOwner;
  /**
   * 'same': the state is this account's; 'other': it belongs to another account or service and must start
   * over; 'new': no owner was recorded (a new state, or one from before owners were kept).
   */
  verdict: 'same' | 'other' | 'new';
}

/**
 * Decides whose a stored state is. Costs a GET /me only when the credential's fingerprint changed (a
 * rotated key of the same account keeps its state) or when the state has no owner yet.
 */
export async function checkStateOwner(stored: StateOwner | undefined, current: CurrentOwner): Promise<OwnerCheck> {
  const bind = async (): Promise<StateOwner> => {
    const account = await current.whoAmI();
    const owner: StateOwner = { baseUrl: current.baseUrl, credential: current.credential };
    if (account !== undefined) owner.account = account;
    return owner;
  };
  if (stored === undefined) return { owner: await bind(), verdict: 'new' };
  if (stored.baseUrl !== current.baseUrl) return { owner: await bind(), verdict: 'other' };
  if (stored.credential === current.credential) return { owner: stored, verdict: 'same' };
  const owner = await bind();
  const same = stored.account !== undefined && owner.account === stored.account;
  return { owner, verdict: same ? 'same' : 'other' };
}

/** Checks the shape of a stored owner; a broken one is reported by the caller's state check. */
export function isStateOwner(value: unknown): value is StateOwner {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const owner = value as Record<string, unknown>;
  return (
    typeof owner.baseUrl === 'string' &&
    typeof owner.credential === 'string' &&
    (owner.account === undefined || typeof owner.account === 'string')
  );
}

/**
 * 64 bits of FNV-1a over the key (two 32-bit lanes with different offsets): enough to notice that the
 * credential changed, far too little to learn anything about a key of 100+ random bits. Not a secret
 * store, not a MAC: GET /me decides whether a changed credential is still the same account.
 */
export function credentialFingerprint(secret: string): string {
  return secret === '' ? '' : `fnv:${fingerprint64(secret)}`;
}
