/**
 * Who may call the HTTP server. Every request, in every mode, must
 * - name an allowed Host: loopback names, plus the names given with --allowed-host or
 *   SHORTLINK_MCP_ALLOWED_HOSTS, plus the --host address itself under --allow-remote (a page that reaches
 *   the port by DNS rebinding sends its own name and is refused);
 * - come from no browser page, or from an allowed Origin: loopback pages, plus those given with
 *   --allowed-origin or SHORTLINK_MCP_ALLOWED_ORIGINS. `Origin: null` (a sandboxed frame, a file) is refused;
 * - carry the server's bearer token (SHORTLINK_MCP_TOKEN, or a file named by SHORTLINK_MCP_TOKEN_FILE or
 *   --token-file), compared in constant time.
 * --allow-remote widens the Host list; it never turns a check off.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isLoopbackHost } from '@shortlink/core/host';
import { checkPrivateFile, ConfigError, type Environment } from './config';

/** Shorter tokens are guessable; 32 random bytes in hex is 64 characters. */
export const MIN_TOKEN_LENGTH = 24;

export const TOKEN_ADVICE = `e.g. the output of: node -e "console.log(require('crypto').randomBytes(32).toString('hex'))"`;

export interface HttpAccess {
  /** Digest of the bearer token (the token itself is not kept beside the lists). */
  tokenDigest: Buffer;
  /** Host names (lower case, no port) accepted beside loopback ones; entries with a port match that port only. */
  allowedHosts: readonly string[];
  /** Origins (scheme://host[:port], lower case) accepted beside loopback ones. */
  allowedOrigins: readonly string[];
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function listOf(values: readonly string[], env: string | undefined): string[] {
  return [...values, ...(env ?? '').split(',')].map((value) => value.trim()).filter((value) => value !== '');
}

/** "Shortlink-MCP:3333" → "shortlink-mcp:3333"; a URL is refused (a Host is a name, not an address). */
function hostEntry(value: string): string {
  if (/[/@\s]/.test(value)) throw new ConfigError(`--allowed-host ${value}: give a host name as clients reach the server (e.g. shortlink-mcp or mcp.example.com:3333), not a URL.`);
  return value.toLowerCase();
}

function originEntry(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`--allowed-origin ${value}: give an origin such as https://app.example.com (scheme, host and port only).`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ConfigError(`--allowed-origin ${value}: give an origin such as https://app.example.com (scheme, host and port only).`);
  }
  return url.origin.toLowerCase();
}

function readToken(env: Environment, tokenFile: string | undefined): string | undefined {
  const path = tokenFile ?? env.SHORTLINK_MCP_TOKEN_FILE?.trim();
  if (path) {
    checkPrivateFile(path, 'token file');
    const text = readFileSync(path, 'utf8').trim();
    if (text === '') throw new ConfigError(`The token file ${path} is empty: put one token in it, ${TOKEN_ADVICE}.`);
    return text;
  }
  return env.SHORTLINK_MCP_TOKEN?.trim() || undefined;
}

export interface AccessSettings {
  host: string;
  allowRemote: boolean;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  tokenFile?: string;
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

export function httpAccess(settings: AccessSettings, env: Environment): HttpAccess {
  const token = readToken(env, settings.tokenFile);
  if (!token) {
    throw new ConfigError(
      `Over HTTP every caller must send the server's token: set SHORTLINK_MCP_TOKEN (or SHORTLINK_MCP_TOKEN_FILE / --token-file) to a long random text, ${TOKEN_ADVICE}. Clients send it in the Authorization header, after "Bearer ".`,
    );
  }
  if (token.length < MIN_TOKEN_LENGTH) throw new ConfigError(`The HTTP token has ${token.length} characters; use at least ${MIN_TOKEN_LENGTH}, ${TOKEN_ADVICE}.`);
  const allowedHosts = listOf(settings.allowedHosts, env.SHORTLINK_MCP_ALLOWED_HOSTS).map(hostEntry);
  if (settings.allowRemote && !isWildcard(settings.host)) allowedHosts.push(settings.host.replace(/^\[|\]$/g, '').toLowerCase());
  if (settings.allowRemote && isWildcard(settings.host) && allowedHosts.length === 0) {
    throw new ConfigError(
      `--host ${settings.host} listens on every address, so the server needs the names callers use for it: add --allowed-host NAME (e.g. --allowed-host shortlink-mcp, the service name in Docker Compose), or set SHORTLINK_MCP_ALLOWED_HOSTS.`,
    );
  }
  return { tokenDigest: digest(token), allowedHosts, allowedOrigins: listOf(settings.allowedOrigins, env.SHORTLINK_MCP_ALLOWED_ORIGINS).map(originEntry) };
}

function splitHost(value: string): { name: string; port: string } | undefined {
  try {
    const url = new URL(`http://${value}`);
    if (url.username || url.password || url.pathname !== '/') return undefined;
    return { name: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port };
  } catch {
    return undefined;
  }
}

export function hostAllowed(access: HttpAccess, hostHeader: string | undefined): boolean {
  const host = hostHeader ? splitHost(hostHeader) : undefined;
  if (!host) return false;
  if (isLoopbackHost(host.name)) return true;
  return access.allowedHosts.some((entry) => {
    const allowed = splitHost(entry);
    return allowed !== undefined && allowed.name === host.name && (allowed.port === '' || allowed.port === host.port);
  });
}

export function originAllowed(access: HttpAccess, origin: string | undefined): boolean {
  if (origin === undefined) return true; // not a browser: programs send no Origin
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, files) and anything unreadable
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopbackHost(url.hostname)) return true;
  return access.allowedOrigins.includes(url.origin.toLowerCase());
}

/** The Authorization header carries the token: constant-time over digests, so neither length nor content leaks. */
export function tokenAccepted(access: HttpAccess, authorization: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), access.tokenDigest) && match !== null;
}
