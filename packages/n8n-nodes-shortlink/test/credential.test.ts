/**
 * The built credential: built from the shared definition, its generic authenticate resolves (with n8n's
 * expression engine) to the header the shared definition prescribes, and its test request (GET /me)
 * passes with a good key and fails with a bad one against the sandbox.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { shortLinkCredential } from '../../../credentials/shortLinkApi';
import { authenticate, n8nHttpRequest, resolveCredentialExpression, ShortLinkApi, type TestCredentials } from './harness';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});

afterAll(async () => {
	await sandbox.close();
});

/** n8n's credential test: resolve the request's expressions, authenticate, send; a non-2xx throws. */
async function credentialTest(credentials: TestCredentials) {
	const { request } = new ShortLinkApi().test;
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: resolveCredentialExpression(String(request.baseURL), credentials),
		url: String(request.url),
		json: true,
	};
	return await n8nHttpRequest(authenticate(options, credentials));
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
		expect(credential.test.request).toMatchObject({ method: shortLinkCredential.test.method, url: shortLinkCredential.test.path });
	});

	it('authenticates with the Bearer header of the shared definition', () => {
		const credentials = { apiKey: '  key-with-spaces-around ', baseUrl: 'https://short.example.com' };
		const options = authenticate({ url: 'https://short.example.com/api/v1/me' }, credentials);
		expect(options.headers).toEqual(shortLinkCredential.authorizationHeader(credentials.apiKey));
	});

	it.each(['https://short.example.com', 'https://short.example.com/', 'https://short.example.com/api/v1', ' https://short.example.com// '])(
		'test request base URL from %j is the shared apiUrl',
		(baseUrl) => {
			const resolved = resolveCredentialExpression(String(credential.test.request.baseURL), { apiKey: 'k', baseUrl });
			expect(resolved).toBe(shortLinkCredential.apiUrl(baseUrl));
		},
	);

	it('test request succeeds with the sandbox key and fails with 401 for a wrong key', async () => {
		const account = (await credentialTest({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl })) as { name: string };
		expect(shortLinkCredential.connectionLabel(account as never)).toContain(account.name);
		await expect(credentialTest({ apiKey: 'wrong-key', baseUrl: `${sandbox.baseUrl}/` })).rejects.toMatchObject({
			response: { status: 401 },
		});
	});
});
