/**
 * The project's core (packages/core: its client face for bundles, its operations and its host kit), bundled
 * into dist by esbuild. The nodes import
 * it through this file, by a relative path, not as the private workspace package `@shortlink/core`: that
 * package is not on npm, so the published package.json must not name it, and n8n's scanner accepts only
 * imports of declared packages or relative ones.
 *
 * Only what the nodes and the credential use is exported (types: all of them, they cost nothing at run time),
 * so the bundle in dist/shared/core.js holds no code this package never reaches. A node that needs one more
 * name fails the typecheck and the build (scripts/build.mjs) until it is added here.
 */
export type * from '../../core/src/portable';
export type * from '../../core/src/faces/operations';
export type * from '../../core/src/faces/host';
export { CancelledError, createClient, InputError, ShortLinkError } from '../../core/src/portable';
export { createMemoryRunCache, FormReader, operationByKey, OPERATIONS, runOperation, runTrigger, SHEET_ROW_FIELDS, TRIGGERS } from '../../core/src/faces/operations';
export {
	adviceFor,
	agentSummary,
	createFetchTransport,
	createPollGuard,
	errorLabels,
	exposureOf,
	firstSentence,
	// For the package's tests only: each test stands for a new process (a worker's executions share pacing).
	forgetProcessShared,
	inFormWords,
	isBodyStream,
	isOffered,
	LINK_ID_RULE,
	linkChoiceLabelWithTarget,
	normalizeHeaders,
	readBodyText,
	repeatSentence,
	RESOURCE_WORDS,
	searchLinksByText,
	sheetSafeRecord,
	SHORT_URL_RULE,
	shortLinkCredential,
	triggerExposureOf,
} from '../../core/src/faces/host';
