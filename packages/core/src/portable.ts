/**
 * `@shortlink/core/portable`: everything except the standalone transport. Reaches no `process`, timers,
 * global object, file system or axios, so a host's bundle (n8n) passes its scanner; the host passes
 * `transport` and `sleep` to createClient.
 */
export { createClient } from './client';
export type { ClientOptions, FindOrCreateOptions, LinkIndexClientOptions, PollLinkClicksCallOptions, PollNewLinksCallOptions, ShortLinkClient } from './client';

export type { LinkIndexSnapshot } from './link-index/link-index';
export { loadLinkIndex, saveLinkIndex, LINK_INDEX_LIMITS } from './link-index/stored-index';
export type { SnapshotStore } from './link-index/stored-index';

export type { Sleep, Transport, TransportRequest, TransportResponse } from './http/transport';
export * from './types';
export { AuthenticationError, BadRequestError, CancelledError, ConflictError, DeadlineError, ForbiddenError, InputError, NetworkError, NotFoundError, RateLimitError, SearchIncompleteError, PlanQuotaError, ServerError, ShortLinkError, UnexpectedResponseError, UnknownOutcomeError, ValidationError, redact } from './errors';
export type { FieldError, ShortLinkErrorKind } from './errors';

export type { ForbiddenReason } from './http/forbidden-reason';
export { buildCampaignUrl } from './forms/campaign-url';
export { checkNewLinksState, DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES } from './polls/new-links';
export type { NewLinksState, PollNewLinksOptions, PollNewLinksResult } from './polls/new-links';
export { checkLinkClicksState, DEFAULT_CREATED_WITHIN_DAYS, linkIdentity, lookBackState, MAX_CHOSEN_LINKS, MAX_CREATED_WITHIN_DAYS, MAX_WATCHED_LINKS, parseMilestones } from './polls/link-clicks';
export type { LinkClickEvent, LinkClicksMode, LinkClicksScope, LinkClicksState, PollLinkClicksOptions, PollLinkClicksResult } from './polls/link-clicks';

export { PagingCircleError } from './reading/walk-guard';

export type { ReadAllLinksOptions, ReadAllLinksResult } from './reading/read-all';

export type { ServiceProfile } from './reading/service-profile';
export { adviceFor, DOMAIN_ADVICE, RECONNECT_ADVICE, UPGRADE_ADVICE } from './forms/advice';
export { credentialFingerprint } from './polls/state-owner';
export { forgetProcessShared } from './client/process-shared';
export type { CurrentOwner } from './polls/state-owner';
export { createPollGuard } from './polls/poll-guard';
export type { PollGuard } from './polls/poll-guard';

export { readPacingState } from './http/pacer';
export type { PacingState } from './http/pacer';
export { isLoopbackHost, normalizeBaseUrl } from './http/base-url';
export { checkSlug } from './forms/input-checks';
export { readDateTime, readExpiry } from './forms/date-input';
export type { DateTimeInputOptions, ExpiryInputOptions } from './forms/date-input';
export { COMMON_FIELD_LABELS, inFormWords, relabel } from './forms/form-words';
export { linkChoiceLabel, linkChoiceLabelWithTarget, searchLinksByText } from './link-index/link-choices';
export type { LinkTextSearchOptions } from './link-index/link-choices';
export type { FieldLabels, FormWords } from './forms/form-words';
export { completeCreatedLink } from './creating/new-link';
export { checkDay, dailyClicks } from './stats/daily-clicks';
export type { DailyClicksOptions, DayClicks } from './stats/daily-clicks';

export { isBodyStream, readBodyText, ResponseTooLargeError } from './http/body-reader';
export { normalizeHeaders, parseBodyText } from './http/response-normalizer';
export { createFetchTransport } from './http/fetch-transport';
export type { FetchTransportOptions } from './http/fetch-transport';

// The operation layer (docs/architecture.md): every user-facing operation, defined once.
export * from './operations';

// Clicks Per Day: what the hosts' trigger code uses beside the operation layer's trigger.
export { checkClicksPerDayState, pollClicksPerDay, CLICKS_PER_DAY_COST_HELP } from './polls/clicks-per-day';
export type { ClicksPerDayState, DailyClicksRecord } from './polls/clicks-per-day';
export { alwaysRequired, conditionHolds, conditionText, isRequired, singleRowFields, type FieldCondition, type FieldConditionValue, type FormField, type FieldKind, type FieldGroup, type FieldChoice } from './forms/form-fields';
export { FormReader, MAX_QUOTED_INPUT, quoteInput, type FormCaller, type FormValues } from './forms/form-values';
// Hosts that describe inputs as JSON Schema (MCP) and must answer one page at a time.
export { inputSchemaOf, recordSchemaOf } from './operations/json-schema';
export type { JsonSchema } from './operations/json-schema';
export { ONE_PAGE_FORMS } from './operations/links/get-links-page';

// The one definition of the connection (credential) both hosts build theirs from.
export { shortLinkCredential } from './credential/short-link-credential';
export type { CredentialField } from './credential/short-link-credential';

// Drawing a QR code again from its recipe (OperationFile.remake), for hosts that hand files on by pointer.
export { makeQrCode } from './qr-code/qr-code';
export type { QrCodeOptions } from './qr-code/qr-code';
