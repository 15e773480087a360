// Scans a published version of this package with n8n's community-package scanner, as n8n does before it
// verifies a package: `npx @n8n/scan-community-package n8n-nodes-shortlink@<version>` checks the npm
// provenance, fetches the attested source from GitHub and lints source and tarball.
// The scanner exits 0 also when the package fails, so the verdict is read from its output. A version the
// registry does not show yet is retried for a few minutes.
// Usage: node scripts/scan-published.mjs <version> [--scanner <cli.mjs>]   (--scanner: run that scanner CLI
// with node instead of the latest one from npm, e.g. a pinned install or a test double)
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const PACKAGE = 'n8n-nodes-shortlink';
const ATTEMPTS = 6;
const WAIT_MS = 30_000;

const [version] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--scanner');
const scannerIndex = process.argv.indexOf('--scanner');
const scanner = scannerIndex > 0 ? process.argv[scannerIndex + 1] : null;
if (!version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
	console.error('Usage: node scripts/scan-published.mjs <version> [--scanner <cli.mjs>]');
	process.exit(2);
}

const spec = `${PACKAGE}@${version}`;
for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
	const [command, args] = scanner
		? [process.execPath, [scanner, spec]]
		: ['npx', ['--yes', '@n8n/scan-community-package', spec]];
	console.log(`$ ${[command === process.execPath ? 'node' : command, ...args].join(' ')}   (attempt ${attempt}/${ATTEMPTS})`);
	const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000 });
	const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
	process.stdout.write(output);
	if (result.status === 0 && output.includes(`Package ${spec} has passed all security checks`)) {
		console.log(`\n${spec} passed n8n's community-package scan.`);
		process.exit(0);
	}
	// Just published: the registry's metadata may not list the version yet.
	const notVisibleYet = /No package metadata found for version|No version found matching|E404|404 Not Found/.test(output);
	if (!notVisibleYet || attempt === ATTEMPTS) break;
	console.log(`${spec} is not visible in the registry yet; trying again in ${WAIT_MS / 1000} s.`);
	await sleep(WAIT_MS);
}
console.error(`\n${spec} did not pass n8n's community-package scan (see the scanner's reason above).`);
process.exit(1);
