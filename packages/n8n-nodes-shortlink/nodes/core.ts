/**
 * The project's core client (packages/core, portable entry), bundled into dist by esbuild. The nodes import
 * it through this file, by a relative path, not as the private workspace package `@shortlink/core`: that
 * package is not on npm, so the published package.json must not name it, and n8n's scanner accepts only
 * imports of declared packages or relative ones.
 *
 * Only what the nodes and the credential use is exported (types: all of them, they cost nothing at run time),
 * so the bundle in dist/shared/core.js holds no code this package never reaches. A node that needs one more
 * name fails the typecheck and the build (scripts/build.mjs) until it is added here.
 */
export type * from '../../core/src/portable';
export {
	adviceFor,
	CancelledError,
	CLICKS_PER_DAY_COST_HELP,
	COMMON_FIELD_LABELS,
	createClient,
	createFetchTransport,
	createMemoryRunCache,
	createPollGuard,
	DEFAULT_CREATED_WITHIN_DAYS,
	DEFAULT_MAX_LINKS,
	DEFAULT_MAX_PAGES,
	// For the package's tests only: each test stands for a new process (a worker's executions share pacing).
	forgetProcessShared,
	inFormWords,
	InputError,
	isBodyStream,
	linkChoiceLabelWithTarget,
	linkRecord,
	MAX_CHOSEN_LINKS,
	MAX_CREATED_WITHIN_DAYS,
	MAX_WATCHED_LINKS,
	normalizeHeaders,
	operationByKey,
	parseMilestones,
	readBodyText,
	readDateTime,
	relabel,
	runOperation,
	runTrigger,
	searchLinksByText,
	shortLinkCredential,
	ShortLinkError,
	triggerByKey,
	UTM_FIELDS,
} from '../../core/src/portable';
