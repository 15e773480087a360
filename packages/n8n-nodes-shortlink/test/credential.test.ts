/**
 * The built credential: built from the shared definition, its generic authenticate resolves (with n8n's
 * expression engine) to the header the shared definition prescribes, and its test (both nodes' credentialTest
 * method, through the core) applies the nodes' Base URL rules: it passes with a good key, fails clearly with a
 * bad one, and sends nothing for a Base URL the nodes would refuse or to the target of a redirect.
 */
import nock from 'nock';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { ICredentialsDecrypted, ICredentialTestFunctions, NodeApiError } from 'n8n-workflow';

import { shortLinkCredential } from '../nodes/core';
import { startRecordingServer, startRedirectingServer, type TestServer } from '../../../test/support/hostile-servers';
import { authenticate, runNode, ShortLink, ShortLinkApi, ShortLinkTrigger, type TestCredentials } from './harness';

let sandbox: Sandbox;
const servers: TestServer[] = [];

beforeAll(async () => {
	sandbox = await startSandbox();
});

afterAll(async () => {
	await sandbox.close();
	await Promise.all(servers.map((server) => server.close()));
});


/** n8n's credential test: the node's credentialTest method, called with the decrypted credential. */
async function credentialTest(credentials: TestCredentials) {
	const credential: ICredentialsDecrypted = { id: '1', name: 'Short Link account', type: 'shortLinkApi', data: { ...credentials } };
	const testFunctions = { logger: console, helpers: {} } as unknown as ICredentialTestFunctions;
	return await new ShortLink().methods.credentialTest.shortLinkApiTest.call(testFunctions, credential);
}

describe('Short Link API credential', () => {
	const credential = new ShortLinkApi();

	it('matches the shared credential definition', () => {
		expect(credential.name).toBe(shortLinkCredential.name);
		expect(credential.displayName).toBe(shortLinkCredential.displayName);
		expect(credential.documentationUrl).toBe(shortLinkCredential.documentationUrl);
		const [apiKey, baseUrl] = credential.properties;
		expect(apiKey).toMatchObject({
			name: 'apiKey',
			displayName: shortLinkCredential.fields.apiKey.label,
			description: shortLinkCredential.fields.apiKey.help,
			typeOptions: { password: true },
			required: true,
		});
		expect(baseUrl).toMatchObject({
			name: 'baseUrl',
			displayName: shortLinkCredential.fields.baseUrl.label,
			default: '',
			required: true,
		});
		// No invented address: the user enters their service's (see the shared definition).
		expect(baseUrl).not.toHaveProperty('placeholder');
	});

	it('is tested by both nodes through their own method, not by a declarative request that would skip the rules', () => {
		expect((credential as { test?: unknown }).test).toBeUndefined();
		for (const node of [new ShortLink(), new ShortLinkTrigger()]) {
			expect(node.description.credentials).toEqual([{ name: 'shortLinkApi', required: true, testedBy: 'shortLinkApiTest' }]);
			expect(typeof node.methods.credentialTest.shortLinkApiTest).toBe('function');
		}
	});

	it('authenticates with the Bearer header of the shared definition', () => {
		const credentials = { apiKey: '  key-with-spaces-around ', baseUrl: 'https://short.example.com' };
		const options = authenticate({ url: 'https://short.example.com/api/v1/me' }, credentials);
		expect(options.headers).toEqual(shortLinkCredential.authorizationHeader(credentials.apiKey));
	});

	it.each(['', '/', '/api/v1', '/api/v1/'])('passes with the sandbox key (Base URL + %j)', async (suffix) => {
		await expect(credentialTest({ apiKey: sandbox.apiKey, baseUrl: `${sandbox.baseUrl}${suffix}` })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful',
		});
	});

	it('fails with the words the node itself shows for a wrong key', async () => {
		const wrong = { apiKey: 'wrong-key', baseUrl: sandbox.baseUrl };
		const result = await credentialTest(wrong);
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^The API key is invalid or revoked\. Check the API key of the credential/) });
		const nodeError = (await runNode({ credentials: wrong, parameters: { resource: 'account', operation: 'get' } }).catch((e: unknown) => e)) as NodeApiError;
		expect(nodeError.description).toBe(result.message);
	});

	it.each([
		['plain http to another machine', 'http://short.example.com', /https/],
		['plain http to a private address', 'http://10.0.0.7:8080', /https/],
		['a user name and password in the URL', 'https://user:secret@short.example.com', /user name or password/],
		['an API path after /api/v1', 'https://short.example.com/api/v1/links', /without an API path/],
	])('sends nothing for %s, and says why', async (_what, baseUrl, why) => {
		// Every request that leaves (fetch included) is seen by nock, and none may.
		const attempts: string[] = [];
		const record = (request: { href?: string; url?: string }) => attempts.push(String(request.href ?? request.url));
		nock.disableNetConnect();
		nock.emitter.on('no match', record);
		try {
			const result = await credentialTest({ apiKey: sandbox.apiKey, baseUrl });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(why) });
		} finally {
			nock.emitter.removeListener('no match', record);
			nock.enableNetConnect();
		}
		expect(attempts).toEqual([]);
	});

	it('does not follow a redirect: the other origin never sees the key', async () => {
		const other = await startRecordingServer('127.0.0.2');
		const redirecting = await startRedirectingServer(other.origin, 307);
		servers.push(other, redirecting);
		const result = await credentialTest({ apiKey: sandbox.apiKey, baseUrl: redirecting.origin });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`redirected to ${other.origin}/api/v1/me`);
		expect(other.calls).toEqual([]);
	});
});
