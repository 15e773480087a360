// prepublishOnly: refuses every publish of this package except the one the release workflow makes.
// n8n accepts community packages only when they were published from GitHub Actions with an npm provenance
// statement (since 1 May 2026); a publish from a laptop has none. This plays the part of the n8n starter's
// `n8n-node prerelease`, and checks more: the OIDC token that provenance and trusted publishing need.
// npm skips lifecycle scripts when scripts are ignored (this repository's .npmrc); publishConfig.provenance
// in package.json then stops a publish outside CI instead, before anything is uploaded.
const env = process.env;
const problems = [];
if (env.GITHUB_ACTIONS !== 'true') {
	problems.push('this is not a GitHub Actions job');
} else {
	if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
		problems.push('the job cannot mint an OIDC token: give it `permissions: id-token: write`');
	}
	if (env.RELEASE_MODE !== 'true') problems.push('the publish was not started by `npm run release`');
	if (env.npm_config_provenance !== 'true') problems.push('provenance is off: publish with --provenance');
}

if (problems.length > 0) {
	console.error(
		`Refusing to publish n8n-nodes-shortlink: ${problems.join('; ')}.\n` +
			'n8n accepts community packages only when published from GitHub Actions with npm provenance.\n' +
			'Release by pushing the tag n8n-nodes-shortlink@<version>: see RELEASING.md.',
	);
	process.exit(1);
}
