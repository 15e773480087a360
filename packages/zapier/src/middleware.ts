import type { BeforeRequestMiddleware } from 'zapier-platform-core';
import { shortLinkCredential } from '../../../credentials/shortLinkApi';

/** Adds the bearer header from the shared credential definition to every request of the app. */
export const addAuthorizationHeader: BeforeRequestMiddleware = (request, _z, bundle) => {
  const apiKey = bundle.authData?.apiKey;
  if (apiKey) {
    request.headers = { ...request.headers, ...shortLinkCredential.authorizationHeader(apiKey) };
  }
  return request;
};
