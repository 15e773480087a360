/**
 * `@shortlink/core/portable`: everything except the standalone transport. Reaches no `process`, timers,
 * global object, file system or axios, so a host's bundle (n8n) passes its scanner; the host passes
 * `transport` and `sleep` to createClient.
 */
export { createClient } from './client';
export type {
  ClientOptions,
  FindOrCreateOptions,
  LinkIndexClientOptions,
  PollLinkClicksCallOptions,
  PollNewLinksCallOptions,
  ShortLinkClient,
} from './client';
export { LinkIndex } from './link-index/link-index';
export type { IndexIo, IndexQuery, LinkIndexOptions, LinkIndexSnapshot } from './link-index/link-index';
export { loadLinkIndex, saveLinkIndex, LINK_INDEX_LIMITS } from './link-index/stored-index';
export type { SnapshotStore } from './link-index/stored-index';
export { domainKey, isSameLink, sameTarget, targetKey, unusableReason } from './link-index/same-link';
export type { SameLinkCriteria, UnusableReason } from './link-index/same-link';
export type { HttpMethod, Sleep, Transport, TransportRequest, TransportResponse } from './http/transport';
export * from './types';
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
  RateLimitError,
  SearchIncompleteError,
  PlanQuotaError,
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  ValidationError,
  redact,
} from './errors';
export type { FieldError, ShortLinkErrorKind } from './errors';
export { forbiddenReasonOf, isKeyRefusal } from './http/forbidden-reason';
export type { ForbiddenReason } from './http/forbidden-reason';
export { buildCampaignUrl } from './forms/campaign-url';
export { checkNewLinksState, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES, DEFAULT_PAGE_SIZE, pollNewLinksWith } from './polls/new-links';
export type {
  LinkPageFetcher,
  ListOrder,
  NewLinksCatchUp,
  NewLinksMark,
  NewLinksSegment,
  NewLinksState,
  PollNewLinksInternals,
  PollNewLinksOptions,
  PollNewLinksResult,
} from './polls/new-links';
export {
  checkLinkClicksState,
  checkMilestones,
  CLICKS_PAGE_SIZE,
  DEFAULT_CREATED_WITHIN_DAYS,
  DEFAULT_MAX_CLICK_REQUESTS,
  DEFAULT_MAX_EVENTS,
  idOfIdentity,
  linkIdentity,
  lookBackState,
  MAX_CHOSEN_LINKS,
  MAX_CREATED_WITHIN_DAYS,
  MAX_WATCHED_LINKS,
  parseMilestones,
  pollLinkClicksWith,
} from './polls/link-clicks';
export type {
  LinkClickEvent,
  LinkClicksFetchers,
  LinkClicksMode,
  LinkClicksScope,
  LinkClicksState,
  LinkClicksWalk,
  PollLinkClicksInternals,
  PollLinkClicksOptions,
  PollLinkClicksResult,
} from './polls/link-clicks';
export { readLinkPage, readDomains, readListAnswer } from './reading/page-reader';
export { continuationFingerprint, PagingCircleError, WalkGuard } from './reading/walk-guard';
export { DEFAULT_READ_ALL_MAX_LINKS, DEFAULT_READ_ALL_TIME_LIMIT_MS, readAllLimits } from './reading/read-all';
export type { ReadAllLinksOptions, ReadAllLinksResult } from './reading/read-all';
export type { ListAnswer, NextSign, PagingForm } from './reading/page-reader';
export { describeServiceProfile } from './reading/service-profile';
export { listParametersFrom } from './reading/served-openapi';
export { FULL_LINK_FIELDS, readUpdateAnswer } from './reading/record-readers';
export type { ListParameters } from './reading/served-openapi';
export type { ServiceProfile } from './reading/service-profile';
export { adviceFor, DOMAIN_ADVICE, RECONNECT_ADVICE, UPGRADE_ADVICE } from './forms/advice';
export { checkStateOwner, credentialFingerprint } from './polls/state-owner';
export type { CurrentOwner, OwnerCheck, StateOwner } from './polls/state-owner';
export { createPollGuard } from './polls/poll-guard';
export type { PollGuard, PollGuardOptions } from './polls/poll-guard';
export { parseRateLimitHeaders, parseRetryAfterMs, PLAUSIBLE_WAIT_MS, serviceNowMs } from './http/rate-limit-headers';
export type { RateLimitInfo } from './http/rate-limit-headers';
export { readPacingState } from './http/pacer';
export type { PacingState } from './http/pacer';
export { API_PREFIX, apiUrlFor, isLoopbackHost, normalizeBaseUrl } from './http/base-url';
export { checkSlug, linkPath, MAX_SLUG_LENGTH, SLUG_RULE } from './forms/input-checks';
export { instantOfWallTime, isKnownTimeZone, readDateTime, readExpiry, wallTimeIn } from './forms/date-input';
export type { DateTimeInputOptions, ExpiryInputOptions } from './forms/date-input';
export { COMMON_FIELD_LABELS, FIELD_RULES, inFormWords, relabel } from './forms/form-words';
export { linkChoiceLabel, linkChoiceLabelWithTarget, linkMatchesText, searchLinksByText } from './link-index/link-choices';
export type { LinkTextSearchOptions } from './link-index/link-choices';
export type { FieldLabels, FormWords } from './forms/form-words';
export { completeCreatedLink } from './creating/new-link';
export { checkDay, dailyClicks, MAX_FILLED_DAYS } from './stats/daily-clicks';
export type { DailyClicksOptions, DayClicks } from './stats/daily-clicks';
export { errorFromResponse, statusText } from './http/error-from-response';
export { isBodyStream, readBodyText, ResponseTooLargeError } from './http/body-reader';
export { normalizeHeaders, parseBodyText } from './http/response-normalizer';
export { createFetchTransport } from './http/fetch-transport';
export type { FetchTransportOptions } from './http/fetch-transport';

// The operation layer (docs/architecture.md): every user-facing operation, defined once.
export * from './operations';
export * from './reports';
export * from './polls/clicks-per-day';
export type { FormField, FieldKind, FieldGroup, FieldChoice } from './forms/form-fields';
export { FormReader, type FormValues } from './forms/form-values';
// Hosts that describe inputs as JSON Schema (MCP) and must answer one page at a time.
export { fieldSchema, inputSchemaOf } from './operations/json-schema';
export type { JsonSchema } from './operations/json-schema';
export { getLinksPage, ONE_PAGE_FORMS, MAX_PAGE_SIZE } from './operations/links/get-links-page';

// The one definition of the connection (credential) both hosts build theirs from.
export { shortLinkCredential } from './credential/short-link-credential';
export type { CredentialField } from './credential/short-link-credential';

// Drawing a QR code again from its recipe (OperationFile.remake), for hosts that hand files on by pointer.
export { makeQrCode } from './qr-code/qr-code';
export type { QrCodeOptions, QrCodeImage } from './qr-code/qr-code';
