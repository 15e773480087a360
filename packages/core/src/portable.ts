/**
 * `@shortlink/core/portable`: the client face — the client, its errors and the API's types — as hosts bundle
 * it. It reaches no `process`, timers, global object, file system or axios, so a host's bundle (n8n) passes
 * its scanner; the host passes `transport` and `sleep` to createClient. `@shortlink/core` is the same face
 * with the standalone defaults (index.ts). What hosts and agents run is `@shortlink/core/operations`, the
 * host kit `@shortlink/core/host` (docs/architecture.md, "The core's faces").
 */
export { createClient } from './client';
export type { ClientOptions, FindOrCreateOptions, ShortLinkClient } from './client';
export type { Sleep, Transport, TransportRequest, TransportResponse } from './http/transport';
export type {
  Account,
  CampaignParameters,
  CountedLabel,
  CreateLinkInput,
  Domain,
  FindLinksOptions,
  IterateLinksOptions,
  Link,
  LinkCreated,
  LinkPage,
  LinkStats,
  ListLinksOptions,
  Plan,
  Problem,
  UpdateLinkInput,
  Usage,
  ValidationProblem,
} from './types';
export {
  AuthenticationError,
  BadRequestError,
  CancelledError,
  ConflictError,
  DeadlineError,
  ForbiddenError,
  InputError,
  NetworkError,
  NotFoundError,
  PlanQuotaError,
  RateLimitError,
  SearchIncompleteError,
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  ValidationError,
  redact,
} from './errors';
export type { FieldError } from './errors';
export { PagingCircleError } from './reading/walk-guard';
