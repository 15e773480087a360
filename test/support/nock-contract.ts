/**
 * Jest setup (setupFilesAfterEnv): every nock reply for a path under /api/v1/ is checked against
 * openapi/short-link-api.yaml, so that a fixture cannot drift from the document unnoticed.
 *
 * What is checked (test/contract/openapi-contract.ts, expectDocumented, does the checking):
 * the operation (method + path template, e.g. GET /links/{id}/stats) must exist; the status must be
 * declared (exact code, else its NXX range); the content type (application/json vs
 * application/problem+json) and the body must match the response schema; the required headers
 * must be there with valid values (RateLimit-* on every answer, Retry-After on 429).
 *
 * When:
 * - a static reply, `.reply(status, body, headers)`, is checked when it is defined: the error is
 *   thrown at the fixture's own line;
 * - a computed reply, `.reply(status, (uri, body) => ...)` or `.reply((uri, body) => [status, body, headers])`,
 *   (and a static reply on a RegExp or function path) is checked when it is served: the request
 *   fails, and the test fails in afterEach with the same message, whatever the code under test did
 *   with the failed request.
 * The scope's defaultReplyHeaders count, as nock sends them.
 *
 * Leaving the contract on purpose (tolerance tests: other list shapes, HTML from a proxy, broken
 * JSON, missing rate-limit headers, undeclared statuses) is said with ONE mechanism, on the scope,
 * before its replies are defined:
 *
 *     offContract(nock(API), 'a proxy in front answers with HTML').get('/me').reply(502, '<html>…');
 *
 * Every reply of that scope is then exempt; the reason is required. Import offContract from this
 * file (jest hands the test the same module instance the setup loaded); packages/core/test/nock-api.ts
 * re-exports it beside `api()`, a scope whose replies carry the RateLimit-* headers.
 */
import { relative, resolve } from 'node:path';
import type nock from 'nock';
import type { OperationRef } from '../contract/openapi-contract';

const API_PREFIX = '/api/v1';
const ROOT = resolve(__dirname, '../..');

/** The reasons of scopes marked with offContract. */
const offContractScopes = new WeakMap<object, string>();

/**
 * Marks every reply of this scope as deliberately off the OpenAPI document, for the reason given.
 * Call it on the scope before defining its replies; returns the scope for chaining.
 */
export function offContract<S extends nock.Scope>(scope: S, reason: string): S {
  if (typeof reason !== 'string' || reason.trim().length === 0) {
    throw new Error('offContract(scope, reason): reason must say why the fixture leaves the OpenAPI document.');
  }
  offContractScopes.set(scope, reason);
  return scope;
}

/** A nock fixture that breaks the OpenAPI document. */
export class NockContractError extends Error {
  override name = 'NockContractError';
}

const servedViolations: NockContractError[] = [];

/**
 * The violations found in replies served since the last call, emptied. The afterEach hook below
 * fails the test with them; the checker's own tests read them to assert.
 */
export function takeServedViolations(): NockContractError[] {
  return servedViolations.splice(0);
}

/** Throws the first served violation since the last call (all of them are then forgotten). */
export function failOnServedViolations(): void {
  const [first, ...more] = takeServedViolations();
  if (!first) return;
  if (more.length > 0) first.message += `\n(and ${more.length} more served fixture violation(s) in this test)`;
  throw first;
}

// ---------------------------------------------------------------------------------------------
// The operation of a request path, from the document's path templates.

type Contract = typeof import('../contract/openapi-contract');
let contract: Contract | undefined;
let templates: Array<{ path: string; pattern: RegExp; literal: number }> | undefined;

/** Loaded on the first reply under /api/v1/ only: most test files never define one. */
function loadContract(): Contract {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  contract ??= require('../contract/openapi-contract') as Contract;
  return contract;
}

function operationOf(method: string, path: string): OperationRef | undefined {
  templates ??= Object.keys(loadContract().document.paths)
    .map((template) => ({
      path: template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
      literal: template.replace(/\{[^/}]+\}/g, '').length,
    }))
    // Literal segments win over parameters (/links/search before /links/{id}).
    .sort((a, b) => b.literal - a.literal);
  const lower = method.toLowerCase() as OperationRef['method'];
  const template = templates.find((t) => t.pattern.test(path));
  if (!template || !loadContract().document.paths[template.path][lower]) return undefined;
  return { path: template.path, method: lower };
}

// ---------------------------------------------------------------------------------------------
// The check of one reply.

interface Reply {
  method: string;
  /** The request path: the fixture's path when defined, the served path (query included) when served. */
  path: string;
  status: number;
  rawHeaders: unknown[];
  body: unknown;
  definedAt: string;
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body !== null && typeof (body as { pipe?: unknown }).pipe === 'function') return undefined; // a stream
  return JSON.stringify(body);
}

/** The problem with the reply, or undefined when it keeps the contract (or is not an API reply). */
function violationOf(reply: Reply): NockContractError | undefined {
  const path = reply.path.split('?')[0];
  if (!path.startsWith(`${API_PREFIX}/`)) return undefined;
  const fixture = `${reply.method} ${reply.path} → ${reply.status}, defined at ${reply.definedAt}`;
  const fail = (problem: string) =>
    new NockContractError(
      `nock fixture breaks openapi/short-link-api.yaml: ${fixture}\n  ${problem.replace(/\n/g, '\n  ')}\n` +
        `Fix the fixture to the document, or mark its scope deliberately off the document: offContract(nock(...), 'why').`,
    );
  const operation = operationOf(reply.method, path.slice(API_PREFIX.length));
  if (!operation) return fail(`${reply.method} ${path} is no operation of the document.`);

  const headers = new Headers();
  try {
    for (let i = 0; i < reply.rawHeaders.length; i += 2) {
      const value = reply.rawHeaders[i + 1];
      if (typeof value === 'function') return fail(`header ${String(reply.rawHeaders[i])} is computed by a function and cannot be checked.`);
      for (const one of Array.isArray(value) ? value : [value]) headers.append(String(reply.rawHeaders[i]), String(one));
    }
  } catch (error) {
    return fail(`unreadable headers: ${(error as Error).message}`);
  }
  const text = bodyText(reply.body);
  if (text === undefined) return fail('a streamed body cannot be checked.');
  try {
    loadContract().expectDocumented(operation, { status: reply.status, headers, text });
  } catch (error) {
    const message = error instanceof SyntaxError ? `the body is not JSON: ${error.message}` : (error as Error).message;
    return fail(message);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The hook into nock: Interceptor.prototype.reply (nock 14, lib/interceptor.js).

interface InterceptorInternals {
  scope: { _defaultReplyHeaders: unknown[] };
  method: string;
  path: unknown;
  statusCode: number | null;
  body: unknown;
  rawHeaders: unknown[];
  replyFunction?: (this: InterceptorInternals, uri: string, body: unknown, callback?: unknown) => unknown;
  fullReplyFunction?: (this: InterceptorInternals, uri: string, body: unknown, callback?: unknown) => unknown;
}
type ReplyMethod = (this: InterceptorInternals, ...args: unknown[]) => unknown;

/** The headers nock sends: the reply's own, then the scope defaults it does not override, then JSON's type. */
function sentHeaders(interceptor: InterceptorInternals, own: unknown[], body: unknown): unknown[] {
  const names = new Set<string>();
  for (let i = 0; i < own.length; i += 2) names.add(String(own[i]).toLowerCase());
  const headers = [...own];
  const defaults = interceptor.scope._defaultReplyHeaders ?? [];
  for (let i = 0; i < defaults.length; i += 2) {
    if (!names.has(String(defaults[i]).toLowerCase())) headers.push(defaults[i], defaults[i + 1]);
  }
  const isJson = body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);
  if (isJson && !headers.some((name, i) => i % 2 === 0 && String(name).toLowerCase() === 'content-type')) {
    headers.push('Content-Type', 'application/json');
  }
  return headers;
}

/** nock's header inputs (object, flat raw array, Map) as a flat raw array. */
function rawArray(headers: unknown): unknown[] {
  if (headers === undefined || headers === null) return [];
  if (Array.isArray(headers)) return headers;
  if (headers instanceof Map) return [...headers].flat();
  return Object.entries(headers as Record<string, unknown>).flat();
}

/** The first stack frame in a test file: where the fixture was written. */
function fixtureLocation(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const match = /\(?([^()\s]+\.test\.ts):(\d+):\d+\)?$/.exec(line.trim());
    if (match) return `${relative(ROOT, match[1])}:${match[2]}`;
  }
  return 'an unknown place (no *.test.ts frame in the stack)';
}

function checkWhenServed(violation: NockContractError | undefined): void {
  if (!violation) return;
  servedViolations.push(violation);
  throw violation; // nock fails the request with it
}

/** Wraps a reply function (either nock form, sync, promise or callback) so that its result is checked. */
function checked(
  original: NonNullable<InterceptorInternals['replyFunction']>,
  check: (interceptor: InterceptorInternals, uri: string, result: unknown) => void,
): NonNullable<InterceptorInternals['replyFunction']> {
  if (original.length === 3) {
    // nock promisifies callback-style functions by their arity: keep it.
    return function (this: InterceptorInternals, uri, body, callback) {
      original.call(this, uri, body, (error: unknown, result: unknown) => {
        if (error) return (callback as (e: unknown) => void)(error);
        try {
          check(this, uri, result);
        } catch (violation) {
          return (callback as (e: unknown) => void)(violation);
        }
        (callback as (e: unknown, r: unknown) => void)(null, result);
      });
    };
  }
  return function (this: InterceptorInternals, uri, body) {
    const result = original.call(this, uri, body);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      return (result as Promise<unknown>).then((settled) => {
        check(this, uri, settled);
        return settled;
      });
    }
    try {
      check(this, uri, result);
    } catch (violation) {
      // nock lets a synchronous throw escape (the request would hang): a rejection fails the request.
      return Promise.reject(violation);
    }
    return result;
  };
}

function install(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Interceptor = require('nock/lib/interceptor') as { prototype: { reply: ReplyMethod & { contractChecked?: true } } };
  if (Interceptor.prototype.reply.contractChecked) return;
  const originalReply = Interceptor.prototype.reply;

  const contractReply: ReplyMethod & { contractChecked?: true } = function (this: InterceptorInternals, ...args: unknown[]) {
    const scope = originalReply.apply(this, args);
    if (offContractScopes.has(this.scope)) return scope;
    const definedAt = fixtureLocation(new Error().stack);
    const method = this.method;

    if (this.fullReplyFunction) {
      const ownHeaders = this.rawHeaders;
      this.fullReplyFunction = checked(this.fullReplyFunction, (interceptor, uri, result) => {
        if (!Array.isArray(result)) return; // nock reports that itself
        const [status, body = '', headers] = result as [number, unknown, unknown];
        const own = [...ownHeaders, ...rawArray(headers)];
        checkWhenServed(violationOf({ method, path: uri, status, body, rawHeaders: sentHeaders(interceptor, own, body), definedAt }));
      });
    } else if (this.replyFunction) {
      this.replyFunction = checked(this.replyFunction, (interceptor, uri, body) => {
        const status = interceptor.statusCode ?? 200;
        checkWhenServed(violationOf({ method, path: uri, status, body, rawHeaders: sentHeaders(interceptor, interceptor.rawHeaders, body), definedAt }));
      });
    } else if (typeof this.path !== 'string') {
      // A RegExp or function path: the request path is known only when served.
      const body = this.body;
      this.replyFunction = checked(() => body, (interceptor, uri) => {
        const status = interceptor.statusCode ?? 200;
        checkWhenServed(violationOf({ method, path: uri, status, body, rawHeaders: sentHeaders(interceptor, interceptor.rawHeaders, body), definedAt }));
      });
    } else {
      const violation = violationOf({
        method,
        path: this.path,
        status: this.statusCode ?? 200,
        body: this.body,
        rawHeaders: sentHeaders(this, this.rawHeaders, this.body),
        definedAt,
      });
      if (violation) throw violation;
    }
    return scope;
  };
  contractReply.contractChecked = true;
  Interceptor.prototype.reply = contractReply;
}

install();

// A served reply that broke the contract fails its test even when the code under test swallowed
// the failed request (retries, Continue On Fail, a caught error).
afterEach(failOnServedViolations);
afterAll(failOnServedViolations);
