// The licences of the registry packages esbuild put into a bundle: bundling removes their files, not their
// terms. Used by the build (dist/THIRD-PARTY-NOTICES.md) and the standalone tree (THIRD-PARTY-NOTICES.md).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The names of the packages under node_modules that an esbuild metafile lists as inputs. */
export function bundledPackages(metafile) {
	const names = new Set();
	for (const input of Object.keys(metafile.inputs)) {
		const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
		if (match) names.add(match[1]);
	}
	return [...names].sort();
}

/** Markdown with each package's name, version, licence, address and licence text. */
export async function thirdPartyNotices(names, nodeModulesDir, intro) {
	const sections = [];
	for (const name of names) {
		const dir = join(nodeModulesDir, name);
		const meta = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
		const licenceFile = (await readdir(dir)).find((file) => /^licen[cs]e(\.md|\.txt)?$/i.test(file));
		if (!licenceFile) throw new Error(`${name} is bundled but ships no licence file`);
		const text = (await readFile(join(dir, licenceFile), 'utf8')).trim();
		sections.push(`## ${name} ${meta.version} (${meta.license})\n\n${meta.homepage ?? meta.repository?.url ?? ''}\n\n\`\`\`\n${text}\n\`\`\``);
	}
	return `# Third-party notices\n\n${intro}\n\n${sections.join('\n\n')}\n`;
}
