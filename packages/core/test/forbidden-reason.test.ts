/** ForbiddenError.reason: plan without API access vs unverified domain, from the problem type first. */
import nock from 'nock';
import { ForbiddenError, createClient } from '../src/index';
import { forbiddenReasonOf } from '../src/forbidden-reason';
import { API_KEY, BASE_URL, fakeClock } from './helpers';
import { api, offContract } from './nock-api';

const TYPES = 'https://shortlink.example/docs/api/errors#';
const PLAN_DETAIL = 'API access requires the business plan or higher; this account is on the pro plan.';
const DOMAIN_DETAIL = 'domain plan.example.net is not a verified custom domain of this account.';

function client() {
  const clock = fakeClock();
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, maxRetries: 0 });
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('403 answers carry their reason', () => {
  test.each([
    ['plan-required', 'Plan without API access', PLAN_DETAIL, 'plan'],
    ['domain-forbidden', 'Domain not allowed', DOMAIN_DETAIL, 'domain'],
  ])('type #%s → %s', async (kind, title, detail, reason) => {
    api().get('/me').reply(403, { type: TYPES + kind, title, status: 403, detail }, { 'Content-Type': 'application/problem+json' });
    const error = await client().getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ reason, status: 403, kind: 'forbidden', detail });
  });

  test('a 403 without a readable body has no reason', async () => {
    offContract(api(), 'a 403 HTML page').get('/me').reply(403, '<html><body>Forbidden</body></html>', { 'Content-Type': 'text/html' });
    const error = await client().getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).reason).toBeUndefined();
  });
});

describe('forbiddenReasonOf', () => {
  test('the documented type decides, whatever the words say', () => {
    expect(forbiddenReasonOf({ type: `${TYPES}plan-required`, title: 'Domain', detail: 'domain' })).toBe('plan');
    expect(forbiddenReasonOf({ type: `${TYPES}domain-forbidden`, title: 'Plan', detail: 'upgrade your plan' })).toBe('domain');
    // Another base or a path segment instead of a fragment still names the kind.
    expect(forbiddenReasonOf({ type: 'https://api.other.example/problems/Plan-Required' })).toBe('plan');
    expect(forbiddenReasonOf({ type: 'https://api.other.example/problems/domain-forbidden/' })).toBe('domain');
  });

  test.each([
    [{ type: 'about:blank', title: 'Forbidden', detail: 'Your subscription does not include API access.' }, 'plan'],
    [{ title: 'Plan without API access' }, 'plan'],
    [{ type: `${TYPES}forbidden`, title: 'Forbidden', detail: 'Please upgrade to use the API.' }, 'plan'],
    [{ title: 'Forbidden', detail: DOMAIN_DETAIL }, 'domain'],
    [{ title: 'Forbidden', detail: 'The hostname go.example.org is not verified.' }, 'domain'],
    [{ title: 'Forbidden', detail: 'Your plan does not include custom domains.' }, undefined],
    [{ title: 'Forbidden', detail: 'Access denied.' }, undefined],
    [{}, undefined],
  ])('an unknown type falls back to the words: %j → %s', (problem, reason) => {
    expect(forbiddenReasonOf(problem)).toBe(reason);
  });

  test('a hand-made ForbiddenError derives its reason too, and an explicit one wins', () => {
    expect(new ForbiddenError({ title: 'Plan without API access', message: 'x', status: 403 }).reason).toBe('plan');
    expect(new ForbiddenError({ title: 'Forbidden', message: 'x', reason: 'domain' }).reason).toBe('domain');
  });
});
