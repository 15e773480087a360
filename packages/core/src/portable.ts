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
export { domainKey, isSameLink, sameTarget, targetKey, unusableReason } from './same-link';
export type { SameLinkCriteria, UnusableReason } from './same-link';
export type { HttpMethod, Sleep, Transport, TransportRequest, TransportResponse } from './transport';
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
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  ValidationError,
  redact,
} from './errors';
export type { FieldError, ShortLinkErrorKind } from './errors';
export { forbiddenReasonOf, isKeyRefusal } from './forbidden-reason';
export type { ForbiddenReason } from './forbidden-reason';
export { buildCampaignUrl } from './campaign-url';
export { checkNewLinksState, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES, DEFAULT_PAGE_SIZE, pollNewLinksWith } from './new-links';
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
} from './new-links';
export {
  checkLinkClicksState,
  checkMilestones,
  CLICKS_PAGE_SIZE,
  DEFAULT_CREATED_WITHIN_DAYS,
  DEFAULT_MAX_CLICK_REQUESTS,
  DEFAULT_MAX_EVENTS,
  lookBackState,
  MAX_CHOSEN_LINKS,
  MAX_CREATED_WITHIN_DAYS,
  MAX_WATCHED_LINKS,
  parseMilestones,
  pollLinkClicksWith,
} from './link-clicks';
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
} from './link-clicks';
export { readLinkPage, readDomains, readListAnswer } from './page-reader';
export type { ListAnswer, NextSign, PagingForm } from './page-reader';
export { describeServiceProfile } from './service-profile';
export { listParametersFrom } from './served-openapi';
export { FULL_LINK_FIELDS, readUpdateAnswer } from './record-readers';
export type { ListParameters } from './served-openapi';
export type { ServiceProfile } from './service-profile';
export { adviceFor, DOMAIN_ADVICE, RECONNECT_ADVICE, UPGRADE_ADVICE } from './advice';
export { checkStateOwner, credentialFingerprint } from './state-owner';
export type { CurrentOwner, OwnerCheck, StateOwner } from './state-owner';
export { createPollGuard } from './poll-guard';
export type { PollGuard, PollGuardOptions } from './poll-guard';
export { parseRateLimitHeaders, parseRetryAfterMs } from './rate-limit-headers';
export type { RateLimitInfo } from './rate-limit-headers';
export { API_PREFIX, apiUrlFor, isLoopbackHost, normalizeBaseUrl } from './base-url';
export { checkSlug, linkPath, MAX_SLUG_LENGTH, SLUG_RULE } from './input-checks';
export { instantOfWallTime, isKnownTimeZone, readDateTime, readExpiry, wallTimeIn } from './date-input';
export type { DateTimeInputOptions, ExpiryInputOptions } from './date-input';
export { COMMON_FIELD_LABELS, FIELD_RULES, inFormWords, relabel } from './form-words';
export { linkChoiceLabel, linkMatchesText, searchLinksByText } from './link-choices';
export type { LinkTextSearchOptions } from './link-choices';
export type { FieldLabels, FormWords } from './form-words';
export { completeCreatedLink } from './new-link';
export { checkDay, dailyClicks, MAX_FILLED_DAYS } from './daily-clicks';
export type { DailyClicksOptions, DayClicks } from './daily-clicks';
export { errorFromResponse, statusText } from './error-from-response';
export { isBodyStream, readBodyText, ResponseTooLargeError } from './body-reader';
export { createFetchTransport } from './fetch-transport';
export type { FetchTransportOptions } from './fetch-transport';
