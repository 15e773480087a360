/**
 * `@shortlink/core/host`: the host kit — what a host (n8n, Zapier, MCP) needs beside the operations to offer
 * them as its own: the exposure table and the sentences generated from it, the form's rules as widgets need
 * them, JSON Schemas, errors in the form's words, the transport helpers, the stored link index, pacing and
 * poll state, the shared credential.
 */
export { exposureOf, HOST_WORDING, isOffered, RESOURCE_WORDS, snakeCase, triggerExposureOf } from '../operations/exposure';
export type { Exposure, McpExposure, N8nExposure, NotOffered, TriggerExposure, ZapierOutputShape, ZapierStep } from '../operations/exposure';
export { agentDescription, agentSummary, errorLabels, firstSentence, nameOn, repeatSentence, zapierDescription } from '../operations/host-words';
export type { HostName } from '../operations/host-words';
export { alwaysRequired, conditionHolds, conditionText, isRequired, singleRowFields } from '../forms/form-fields';
export { inputSchemaOf, recordSchemaOf } from '../operations/json-schema';
export type { JsonSchema } from '../operations/json-schema';
export { LINK_ID_RULE, SHORT_URL_RULE } from '../operations/common-fields';
export { inFormWords } from '../forms/form-words';
export { MAX_QUOTED_INPUT, quoteInput } from '../forms/form-values';
export type { FieldLabels, FormWords } from '../forms/form-words';
export { adviceFor, DOMAIN_ADVICE, RECONNECT_ADVICE, UPGRADE_ADVICE } from '../forms/advice';

// The transport a host builds on its HTTP helper, and what it reads answers with.
export { createFetchTransport } from '../http/fetch-transport';
export { isBodyStream, readBodyText } from '../http/body-reader';
export { normalizeHeaders } from '../http/response-normalizer';
export { parseBodyText } from '../basics/json';
export { isLoopbackHost, normalizeBaseUrl } from '../http/base-url';
export { readPacingState } from '../http/pacer';
export type { PacingState } from '../http/pacer';
export { forgetProcessShared } from '../client/process-shared';

// The connection both hosts build theirs from, and who a stored state or index belongs to.
export { shortLinkCredential } from '../credential/short-link-credential';
export { credentialFingerprint } from '../polls/state-owner';
export type { CurrentOwner } from '../polls/state-owner';

// What hosts keep between runs: the link index, trigger states, one poll at a time.
export { loadLinkIndex, saveLinkIndex, LINK_INDEX_LIMITS } from '../link-index/stored-index';
export type { SnapshotStore } from '../link-index/stored-index';
export type { LinkIndexClientOptions } from '../link-index/options';
export { linkChoiceLabel, linkChoiceLabelWithTarget, searchLinksByText } from '../link-index/link-choices';
export { createPollGuard } from '../polls/poll-guard';
export { linkIdentity } from '../polls/link-clicks';
export type { NewLinksState } from '../polls/new-links';
export type { LinkClicksState } from '../polls/link-clicks';
export type { ClicksPerDayState } from '../operations/triggers/clicks-per-day';

// Drawing a QR code again from its recipe (OperationFile.remake), for hosts that hand files on by pointer.
export { makeQrCode } from '../operations/qr-code/qr-code';
export type { QrCodeOptions } from '../operations/qr-code/qr-code';

// Sheet-safe values: what the n8n node and the Zapier app hand to a spreadsheet row (the stored value under `raw`).
export { forSheets, rawRecord, RAW_VALUES_KEY, sheetSafeRecord } from '../operations/sheet-rows';
