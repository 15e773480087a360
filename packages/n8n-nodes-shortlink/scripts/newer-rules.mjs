// Rules of n8n's current community-nodes lint plugin that the newest plugin this project's registry serves
// (@n8n/eslint-plugin-community-nodes 0.32.0, with @n8n/node-cli 0.48.x) does not have yet. Until it does,
// this check stands in for them, with their meaning as n8n documents it
// (n8n-io/n8n, packages/@n8n/eslint-plugin-community-nodes/docs/rules/<rule>.md):
//   no-monorepo            package.json has no repository.directory (a package of its own repository);
//   hint-max-length        no parameter hint of the node descriptions is longer than 120 characters;
//   no-hardcoded-ids       no partner, affiliate, reseller, account, tenant, customer or client id is a fixed
//                          string in a .node.ts / .node.js file;
//   require-param-default  every parameter (an object with a name and one of n8n's parameter types) declares
//                          a default;
//   valid-node-categories  the codex files' categories come from n8n's list (AI only with AI subcategories).
// Hints and parameters are read from the built node descriptions (dist), where the properties the nodes make
// in code are too; n8n's rules read only the literals of the .node.ts files, so this is stricter.
//
// The installed plugin wins: a rule it has is left to it (`n8n-node lint` runs its recommended set), and this
// check says so instead of checking twice. test/release/newer-rules.test.ts notices when that happens.
//
// Usage: node scripts/newer-rules.mjs [--package <dir>] [--json] [--plugin-rules a,b]   (exit 1 on findings)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const STAND_IN_RULES = ['no-monorepo', 'hint-max-length', 'no-hardcoded-ids', 'require-param-default', 'valid-node-categories'];

const MAX_HINT_LENGTH = 120;
const KNOWN_PARAM_TYPES = new Set([
	'boolean', 'button', 'collection', 'color', 'dateTime', 'fixedCollection', 'hidden', 'icon', 'json', 'callout', 'notice',
	'multiOptions', 'number', 'options', 'string', 'credentialsSelect', 'resourceLocator', 'curlImport', 'resourceMapper',
	'filter', 'assignmentCollection', 'credentials', 'workflowSelector',
]);
const CATEGORIES = new Set([
	'Data & Storage', 'Finance & Accounting', 'Marketing & Content', 'Productivity', 'Miscellaneous', 'Sales', 'Development',
	'Analytics', 'Communication', 'Utility', 'AI',
]);
const AI_SUBCATEGORIES = new Set([
	'Agents', 'Chains', 'Language Models', 'Memory', 'Output Parsers', 'Tools', 'Vector Stores', 'Retrievers', 'Embeddings',
	'Document Loaders', 'Text Splitters', 'Other Tools', 'Root Nodes', 'Model Context Protocol', 'Human in the Loop',
	'Miscellaneous', 'Rerankers', 'Evaluation',
]);
const HARDCODED_ID = /(?:^|[^\w$.])['"]?((?:partner|affiliate|reseller|account|tenant|customer|client)[_-]?id)['"]?\s*[:=]\s*['"`]/gim;

/** The rule names of the installed community-nodes plugin, as the package's own n8n-node lint would load it. */
export async function installedPluginRules(packageDir) {
	const resolvePlugin = (from) => createRequire(join(from, 'package.json')).resolve('@n8n/eslint-plugin-community-nodes');
	let entry;
	try {
		entry = resolvePlugin(packageDir);
	} catch {
		// A folder without its own install (a test's fixture): the plugin this script is installed with.
		entry = resolvePlugin(join(dirname(fileURLToPath(import.meta.url)), '..'));
	}
	const plugin = await import(pathToFileURL(entry).href);
	return Object.keys(plugin.n8nCommunityNodesPlugin.rules);
}

function filesUnder(dir, test) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name === 'node_modules') return [];
		return statSync(path).isDirectory() ? filesUnder(path, test) : test(name) ? [path] : [];
	});
}

/** Every object inside `value` (arrays and objects, depth first), with a path for the messages. */
function* objectsIn(value, path) {
	if (Array.isArray(value)) {
		for (const [index, item] of value.entries()) yield* objectsIn(item, `${path}[${index}]`);
	} else if (value && typeof value === 'object') {
		yield { object: value, path };
		for (const [key, item] of Object.entries(value)) yield* objectsIn(item, `${path}.${key}`);
	}
}

/** The node descriptions of the built package (package.json n8n.nodes), as n8n loads them. */
function builtDescriptions(packageDir, pkg) {
	const require = createRequire(join(packageDir, 'package.json'));
	return (pkg.n8n?.nodes ?? []).map((entry) => {
		const file = join(packageDir, entry);
		if (!existsSync(file)) throw new Error(`${entry} is missing: build the package first`);
		const exported = require(file);
		const NodeClass = Object.values(exported).find((value) => typeof value === 'function');
		return { entry, description: new NodeClass().description };
	});
}

/** Findings { rule, where, message } of the rules the installed plugin lacks, and the rules it now has. */
export async function checkNewerRules(packageDir, { pluginRules } = {}) {
	const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const installed = new Set(pluginRules ?? (await installedPluginRules(packageDir)));
	const givenWay = STAND_IN_RULES.filter((rule) => installed.has(rule));
	const active = new Set(STAND_IN_RULES.filter((rule) => !installed.has(rule)));
	const findings = [];
	const report = (rule, where, message) => findings.push({ rule, where, message });

	if (active.has('no-monorepo') && pkg.repository && typeof pkg.repository === 'object' && 'directory' in pkg.repository) {
		report('no-monorepo', 'package.json', `repository.directory is "${pkg.repository.directory}": n8n wants a package of its own repository (no repository.directory)`);
	}

	if (active.has('hint-max-length') || active.has('require-param-default')) {
		for (const { entry, description } of builtDescriptions(packageDir, pkg)) {
			for (const { object, path } of objectsIn(description.properties, `${description.name}.properties`)) {
				if (active.has('hint-max-length') && typeof object.hint === 'string' && object.hint.length > MAX_HINT_LENGTH) {
					report('hint-max-length', `${entry} ${path} (${object.name})`, `the hint is ${object.hint.length} characters, over ${MAX_HINT_LENGTH}: "${object.hint}"`);
				}
				// A resource locator's modes ({ name: 'id', type: 'string' }) are not parameters: n8n-workflow's
				// INodePropertyMode has no default (n8n's AST rule would report one written literally in a .node.ts;
				// ours come from nodes/shared/locators.ts).
				const isMode = /\.modes\[\d+\]$/.test(path);
				if (active.has('require-param-default') && !isMode && typeof object.name === 'string' && KNOWN_PARAM_TYPES.has(object.type) && !('default' in object)) {
					report('require-param-default', `${entry} ${path}`, `the parameter "${object.name}" (${object.type}) has no default`);
				}
			}
		}
	}

	if (active.has('no-hardcoded-ids')) {
		const nodeFiles = [...filesUnder(join(packageDir, 'nodes'), (name) => /\.node\.(ts|js)$/.test(name)), ...filesUnder(join(packageDir, 'dist'), (name) => name.endsWith('.node.js'))];
		for (const file of nodeFiles) {
			const text = readFileSync(file, 'utf8');
			for (const match of text.matchAll(HARDCODED_ID)) {
				const line = text.slice(0, match.index).split('\n').length;
				report('no-hardcoded-ids', `${relative(packageDir, file)}:${line}`, `${match[1]} is a fixed string: read it from a parameter or the credential`);
			}
		}
	}

	if (active.has('valid-node-categories')) {
		for (const file of filesUnder(join(packageDir, 'nodes'), (name) => name.endsWith('.node.json'))) {
			const where = relative(packageDir, file);
			const codex = JSON.parse(readFileSync(file, 'utf8'));
			const { categories, subcategories } = codex;
			if (categories === undefined && subcategories === undefined) continue;
			if (categories !== undefined && (!Array.isArray(categories) || categories.length === 0)) {
				report('valid-node-categories', where, '"categories" must be a non-empty array of community node categories');
				continue;
			}
			for (const category of categories ?? []) {
				if (typeof category !== 'string') report('valid-node-categories', where, `the category ${JSON.stringify(category)} is not a string`);
				else if (category === 'Marketing') report('valid-node-categories', where, '"Marketing" is not a category: use "Marketing & Content"');
				else if (!CATEGORIES.has(category)) report('valid-node-categories', where, `"${category}" is not one of n8n's node categories (${[...CATEGORIES].join(', ')})`);
			}
			const ai = subcategories?.AI;
			const hasAi = (categories ?? []).includes('AI');
			if (hasAi && !(Array.isArray(ai) && ai.length > 0)) report('valid-node-categories', where, 'the "AI" category needs a non-empty subcategories.AI');
			if (subcategories !== undefined && !hasAi) report('valid-node-categories', where, 'subcategories are only for the "AI" category');
			for (const sub of Array.isArray(ai) ? ai : []) {
				if (!AI_SUBCATEGORIES.has(sub)) report('valid-node-categories', where, `"${sub}" is not an AI subcategory`);
			}
		}
	}

	return { findings, givenWay, checked: [...active] };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const args = process.argv.slice(2);
	const valueOf = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
	const packageDir = resolve(valueOf('--package') ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
	const pluginRules = valueOf('--plugin-rules')?.split(',').filter(Boolean);
	const result = await checkNewerRules(packageDir, { pluginRules });
	if (args.includes('--json')) console.log(JSON.stringify(result));
	else {
		for (const rule of result.givenWay) console.log(`given way: the installed plugin has @n8n/community-nodes/${rule}; n8n-node lint runs it`);
		for (const { rule, where, message } of result.findings) console.log(`${where}  ${message}  (${rule}, stand-in)`);
		console.log(`${result.findings.length} finding(s) of the stand-in rules ${result.checked.join(', ') || '(none left)'}`);
	}
	process.exitCode = result.findings.length > 0 ? 1 : 0;
}
