/**
 * nock scopes for the API. Like the service (and the OpenAPI document), every reply carries the
 * RateLimit-* headers; a fixture may still override them. Fixtures are checked against the document
 * (test/support/nock-contract.ts); deliberate departures go through offContract.
 */
import nock from 'nock';
import { API, RATE_HEADERS } from './helpers';

export { offContract } from '../../../test/support/nock-contract';

export const PROBLEM_JSON = { 'Content-Type': 'application/problem+json' };

/** A complete GET /me answer. */
export const ACCOUNT = {
  id: '1',
  name: 'Demo',
  email: 'demo@example.org',
  plan: { name: 'business', apiAccess: true, linkQuota: null },
  usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 3, clicks: 9 },
};

/** A scope on `${BASE_URL}/api/v1` whose replies carry the RateLimit-* headers. */
export function api(): nock.Scope {
  return nock(API).defaultReplyHeaders(RATE_HEADERS);
}

/** No real network; every test must consume exactly the replies it defined. */
export function useStrictNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => nock.enableNetConnect());
}
