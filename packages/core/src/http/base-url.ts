/** Normalises the base URL the user entered into the API root (`<base>/api/v1`). */
import { InputError } from '../errors';

export const API_PREFIX = '/api/v1';

/** Hosts where plain http is acceptable: the key never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * 'https://short.example.com/' → 'https://short.example.com'. Tolerates a trailing slash and an
 * included '/api/v1'; rejects what is not an absolute https URL (http only on loopback).
 */
export function normalizeBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw new InputError('baseUrl', 'baseUrl is required: the address of the service without /api/v1, e.g. https://short.example.com.');
  }
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new InputError('baseUrl', `baseUrl must be an absolute URL such as https://short.example.com; got "${baseUrl.trim().slice(0, 100)}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError('baseUrl', `baseUrl must start with https:// (got ${url.protocol}//).`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InputError(
      'baseUrl',
      'baseUrl must use https: plain http is allowed only for localhost / 127.0.0.1, because the API key would travel unencrypted.',
    );
  }
  if (url.username || url.password) {
    throw new InputError('baseUrl', 'baseUrl must not contain a user name or password; put the API key in the API Key field.');
  }
  let path = url.pathname.replace(/\/+$/, '');
  const apiAt = path.toLowerCase().indexOf(`${API_PREFIX}/`);
  if (apiAt >= 0) {
    // '…/api/v1/links' would become '…/api/v1/links/api/v1/…': every request would miss.
    throw new InputError(
      'baseUrl',
      `baseUrl must be the address of the service without an API path; it ends in "${path.slice(apiAt).slice(0, 60)}". Use ${url.protocol}//${url.host}${path.slice(0, apiAt)}.`,
    );
  }
  if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  return `${url.protocol}//${url.host}${path}`;
}

/** The API root: normalised base URL + '/api/v1'. */
export function apiUrlFor(baseUrl: unknown): string {
  return normalizeBaseUrl(baseUrl) + API_PREFIX;
}

/**
 * Whether `url` lies on the service: the API root's origin (scheme, host and port) and under its path.
 * The only addresses the client sends the key to besides the ones it builds itself (a next-page URL the
 * service handed out).
 */
export function isOnService(apiUrl: string, url: string): boolean {
  let root: URL;
  let candidate: URL;
  try {
    root = new URL(apiUrl);
    candidate = new URL(url);
  } catch {
    return false;
  }
  if (candidate.username || candidate.password || candidate.origin !== root.origin) return false;
  const prefix = root.pathname.replace(/\/+$/, '');
  return candidate.pathname === prefix || candidate.pathname.startsWith(`${prefix}/`);
}
