import type { BeforeRequestMiddleware } from 'zapier-platform-core';
import { shortLinkCredential } from '@shortlink/core/host';

/** The origin (scheme, host, port) of a URL, or undefined when it is none. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Adds the bearer header from the shared credential definition to the app's requests to the connected
 * service, and to nothing else: a request to any other origin (another host, scheme or port) goes out
 * without the key. The base URL's rules (https; http only on loopback) are the core's, applied before.
 */
export const addAuthorizationHeader: BeforeRequestMiddleware = (request, _z, bundle) => {
  const apiKey = bundle.authData?.apiKey;
  let service: string | undefined;
  try {
    service = originOf(shortLinkCredential.apiUrl(bundle.authData?.baseUrl));
  } catch {
    service = undefined; // a refused base URL: the core refuses the call before any request is made
  }
  if (apiKey && service !== undefined && request.url !== undefined && originOf(request.url) === service) {
    request.headers = { ...request.headers, ...shortLinkCredential.authorizationHeader(apiKey) };
  }
  return request;
};
