/**
 * The app's transport on z.request (node-fetch underneath, which follows redirects and re-posts by
 * default): no redirect is followed, the key goes only to the connected service's origin, a step never
 * outlives Zapier's 30 s (a retryable ThrottledError instead), huge answers are refused, and a create whose
 * answer was lost after it was stored is one link, reported as created.
 */
import nock from 'nock';
import { startSandbox } from '@shortlink/sandbox';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { addAuthorizationHeader } from '../src/middleware';
import {
  startHugeAnswerServer,
  startRecordingServer,
  startRedirectingServer,
  startTricklingServer,
  serverPool,
} from '../../../test/support/hostile-servers';
import { authData, newAppTester, run } from './helpers';

const KEY = 'sk_live_ZAPIER_TRANSPORT_KEY_00001';
const { track, closeAll } = serverPool();
afterEach(closeAll);
afterAll(() => nock.restore());

async function failure(promise: Promise<unknown>): Promise<Error & { delay?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { delay?: number };
  }
  throw new Error('expected the step to fail');
}

describe('redirects', () => {
  it.each([302, 307])('a %i to another origin fails naming the Location; the other origin never sees the key or the body', async (status) => {
    const other = await track(startRecordingServer('127.0.0.2'));
    const redirecting = await track(startRedirectingServer(other.origin, status));
    const appTester = newAppTester();
    const auth = authData(redirecting.origin, KEY);

    const create = await failure(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org/x' } }));
    expect(create.message).toContain(`redirected to ${other.origin}/api/v1/links`);
    const find = await failure(run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '42' } }));
    expect(find.message).toContain(`redirected to ${other.origin}/api/v1/links/42`);
    expect(other.calls).toEqual([]);
  });
});

describe('the key goes to the connected service only', () => {
  const bundle = { authData: { apiKey: KEY, baseUrl: 'https://short.example.com' } } as unknown as Bundle;
  const z = {} as ZObject;
  it.each([
    ['the service', 'https://short.example.com/api/v1/me', true],
    ['the service, default port spelled out', 'https://short.example.com:443/api/v1/me', true],
    ['another port of the same host', 'https://short.example.com:8443/api/v1/me', false],
    ['plain http to the same host', 'http://short.example.com/api/v1/me', false],
    ['another host', 'https://evil.example.net/api/v1/me', false],
  ])('a request to %s (%s) carries the Authorization header: %s', (_what, url, gets) => {
    const request = addAuthorizationHeader({ url, headers: {} } as never, z, bundle) as { headers: Record<string, string> };
    expect(request.headers.Authorization === `Bearer ${KEY}`).toBe(gets);
  });
});

describe('time budget', () => {
  it('a service that trickles its answer ends the step inside Zapier\'s 30 s, as a retryable ThrottledError', async () => {
    const trickling = await track(startTricklingServer(50));
    const started = Date.now();
    const error = await failure(run(newAppTester(), 'searches.get_link', { authData: authData(trickling.origin, KEY), inputData: { link: '42' } }));
    const seconds = (Date.now() - started) / 1000;
    console.log(`trickling service: the step ended after ${seconds.toFixed(1)} s with ${error.name}`);
    expect(error.name).toBe('ThrottledError');
    expect(seconds).toBeLessThan(30);
  }, 40_000);
});

describe('answer size', () => {
  it('a 30 MB answer is refused while reading', async () => {
    const huge = await track(startHugeAnswerServer(30));
    const error = await failure(run(newAppTester(), 'searches.find_link', { authData: authData(huge.origin, KEY), inputData: { slug: 'x' } }));
    expect(error.message).toMatch(/larger than 10 MB/);
  });
});

describe('a create whose answer is lost after the link was stored', () => {
  it.each([
    ['reset', { resetAfterRate: 1 }],
    ['502', { serverErrorAfterRate: 1 }],
    ['cut-off 201', { brokenBodyAfterRate: 1 }],
  ] as const)('(%s) returns the stored link, and the account holds it once', async (_name, fault) => {
    const sandbox = await startSandbox({ faults: { ...fault, afterFaultMethods: ['POST'] } });
    try {
      const link = await run<{ id: string }>(newAppTester(), 'creates.create_link', {
        authData: authData(sandbox.baseUrl, sandbox.apiKey),
        inputData: { targetUrl: 'https://example.org/lost-answer' },
      });
      const stored = sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === 'https://example.org/lost-answer');
      expect(stored.map((l) => l.id)).toEqual([link.id]);
    } finally {
      await sandbox.close();
    }
  });
});
