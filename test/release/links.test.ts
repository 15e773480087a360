/**
 * Links a user can click: package metadata, the credential's documentation link, the nodes' codex links and
 * the Markdown documentation. The repository's address is named once, in the root package.json; every other
 * mention must agree with it, and every link into the repository must reach a file and a heading that exist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { shortLinkCredential } from '@shortlink/core/portable';
import { API_KEY_HELP_URL } from '../../packages/zapier/src/authentication';
import { anchorsOf, githubSlug, linksOf } from './markdown';

const root = resolve(__dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const rootPackage = readJson('package.json');

/** The one place that names the repository, as a web address: https://github.com/<owner>/<name>. */
const REPOSITORY = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)\.git$/.exec(rootPackage.repository?.url ?? '')?.[1];

const n8nPackage = readJson('packages/n8n-nodes-shortlink/package.json');
/** The n8n package is published from a repository of its own (scripts/standalone.mjs writes it): same owner. */
const N8N_REPOSITORY = REPOSITORY?.replace(/\/[\w.-]+$/, '/n8n-nodes-shortlink');
const published = [{ path: 'packages/zapier', pkg: readJson('packages/zapier/package.json') }];

const n8nCredentialSource = readFileSync(join(root, 'packages/n8n-nodes-shortlink/credentials/ShortLinkApi.credentials.ts'), 'utf8');
const n8nNodeSource = readFileSync(join(root, 'packages/n8n-nodes-shortlink/nodes/ShortLink/ShortLink.node.ts'), 'utf8');
const codexFiles = ['ShortLink/ShortLink.node.json', 'ShortLinkTrigger/ShortLinkTrigger.node.json'].map(
  (file) => `packages/n8n-nodes-shortlink/nodes/${file}`,
);

/** Files in the work tree (tracked or new, not ignored) matching a pathspec. */
function files(...pathspecs: string[]): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...pathspecs], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\n').filter(Boolean))].filter((file) => existsSync(join(root, file)));
}

/**
 * Resolves a link into the repository (https://github.com/<owner>/<name>/(blob|tree)/main/<path>#<anchor>) to
 * what is wrong with it, or null. A tree link's anchor refers to the folder's README ("#readme" is GitHub's
 * anchor of the README itself).
 */
function problemWithRepositoryLink(url: string): string | null {
  const match = new RegExp(`^${REPOSITORY}/(blob|tree)/main/([^#?]*)(?:#(.*))?$`).exec(url);
  if (!match) return url === REPOSITORY || url === `${REPOSITORY}#readme` ? null : 'not a blob/tree link on main';
  const [, kind, path, anchor] = match;
  const target = join(root, path);
  if (!existsSync(target)) return `${path} does not exist`;
  if (kind === 'tree' !== statSync(target).isDirectory()) return `${kind} link to ${statSync(target).isDirectory() ? 'a folder' : 'a file'}`;
  if (anchor === undefined) return null;
  const markdownFile = kind === 'tree' ? join(target, 'README.md') : target;
  if (!markdownFile.endsWith('.md') || !existsSync(markdownFile)) return `#${anchor} needs a Markdown file, ${relative(root, markdownFile)} is none`;
  if (kind === 'tree' && anchor === 'readme') return null;
  return anchorsOf(readFileSync(markdownFile, 'utf8')).has(anchor) ? null : `${relative(root, markdownFile)} has no heading #${anchor}`;
}

describe('the repository is named in one place', () => {
  it('the root package.json names it', () => {
    expect(REPOSITORY).toBeDefined();
    expect(rootPackage.homepage).toBe(`${REPOSITORY}#readme`);
  });

  it.each(published)('$path names the same repository, with its folder, and its README as homepage', ({ path, pkg }) => {
    expect(pkg.repository).toEqual({ type: 'git', url: rootPackage.repository.url, directory: path });
    expect(pkg.homepage).toBe(`${REPOSITORY}/tree/main/${path}#readme`);
  });

  it('the n8n package names its own repository, of the same owner, without a folder (n8n\'s no-monorepo)', () => {
    expect(n8nPackage.repository).toEqual({ type: 'git', url: `git+${N8N_REPOSITORY}.git` });
    expect(n8nPackage.homepage).toBe(`${N8N_REPOSITORY}#readme`);
  });

  it('the n8n package names no author e-mail it does not have, and points at the repository instead', () => {
    const { author } = n8nPackage;
    expect(author.url).toBe(REPOSITORY);
    // An address is added by the maintainers (RELEASING.md); it must not be a reserved or example one.
    if (author.email !== undefined) expect(author.email).not.toMatch(/(\.example|\.test|\.invalid|example\.(com|org|net))$/i);
  });

  it('every GitHub address in the user-facing definitions and the Markdown is this repository', () => {
    const github = /https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)/g;
    const ownPaths = [REPOSITORY!, N8N_REPOSITORY!].map((address) => address.slice('https://github.com/'.length));
    const sources = files(
      '*.md', 'packages/*/package.json', 'package.json', 'credentials/*.ts',
      'packages/n8n-nodes-shortlink/nodes', 'packages/n8n-nodes-shortlink/credentials', 'packages/zapier/src',
    );
    const elsewhere: string[] = [];
    for (const file of sources) {
      for (const [, owner, name] of readFileSync(join(root, file), 'utf8').matchAll(github)) {
        const path = `${owner}/${name.replace(/\.git$/, '')}`;
        // Other projects' repositories (n8n's, say) are fine; a stale name of this one is not.
        if (owner.startsWith('shortlink') && !ownPaths.includes(path)) elsewhere.push(`${file}: ${path}`);
      }
    }
    expect(elsewhere).toEqual([]);
  });
});

describe('links a user can click resolve', () => {
  const n8nCredentialUrl = /documentationUrl =\s*'([^']+)'/.exec(n8nCredentialSource)?.[1];
  const n8nNodeUrl = /documentationUrl:\s*'([^']+)'/.exec(n8nNodeSource)?.[1];
  const userLinks: Array<[string, string]> = [
    ['the shared credential documentationUrl', shortLinkCredential.documentationUrl],
    ['the Zapier API Key help link', API_KEY_HELP_URL],
    ['the n8n credential class documentationUrl', n8nCredentialUrl ?? '(not a literal)'],
    ['the Short Link node documentationUrl', n8nNodeUrl ?? '(not a literal)'],
    ...codexFiles.flatMap((file): Array<[string, string]> => {
      const { resources } = readJson(file);
      return [...resources.credentialDocumentation, ...resources.primaryDocumentation].map(({ url }: { url: string }) => [file, url]);
    }),
    ['package.json homepage', rootPackage.homepage],
    ...published.map(({ path, pkg }): [string, string] => [`${path}/package.json homepage`, pkg.homepage]),
    ['n8n package author url', n8nPackage.author.url],
  ];

  it.each(userLinks)('%s: %s', (_where, url) => {
    expect(url.startsWith(`${REPOSITORY}`)).toBe(true);
    expect(problemWithRepositoryLink(url)).toBeNull();
  });

  it('the nodes\' codex documentation links have no #fragment (n8n appends "?utm_…" to them; behind a fragment it breaks the anchor)', () => {
    for (const file of codexFiles) {
      for (const { url } of readJson(file).resources.primaryDocumentation as Array<{ url: string }>) expect(url).not.toContain('#');
    }
    // The node's Docs link opens the user guide (the editor opens documentationUrl as it is).
    expect(n8nNodeUrl).toBe(`${REPOSITORY}/blob/main/docs/n8n.md`);
    for (const file of codexFiles) {
      expect((readJson(file).resources.primaryDocumentation as Array<{ url: string }>).map(({ url }) => url)).toEqual([`${REPOSITORY}/blob/main/docs/n8n.md`]);
    }
  });

  it('the credential documentation is the n8n README section on credentials', () => {
    expect(n8nCredentialUrl).toBe(shortLinkCredential.documentationUrl);
    expect(shortLinkCredential.documentationUrl).toBe(`${REPOSITORY}/blob/main/packages/n8n-nodes-shortlink/README.md#credentials`);
  });

  it('no user-facing definition points at a reserved .example host', () => {
    // The same check as the project's hook: links, help texts and docs in the definitions users see.
    const grep = execFileSync(
      'git',
      [
        'grep', '--untracked', '-nE', 'documentationUrl|homepage|"url"|helpText|docs', '--',
        'packages/*n8n*/nodes/**', 'packages/*n8n*/credentials/**', 'credentials/*.ts', 'packages/zapier/src/**', 'packages/*/package.json',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(grep).toContain('documentationUrl'); // the check reads what it should
    expect(grep.split('\n').filter((line) => /[a-z0-9-]\.example([/"#]|$)/.test(line))).toEqual([]);
  });

  it('every relative link and anchor in the Markdown documentation resolves', () => {
    const broken: string[] = [];
    const markdownFiles = files('*.md').filter((file) => !file.includes('node_modules/'));
    expect(markdownFiles).toEqual(expect.arrayContaining(['README.md', 'packages/n8n-nodes-shortlink/README.md']));
    for (const file of markdownFiles) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const { line, target } of linksOf(text)) {
        if (/^(mailto:|https?:\/\/)/.test(target) && !target.startsWith(`${REPOSITORY}/`)) continue;
        const problem = target.startsWith(`${REPOSITORY}/`)
          ? problemWithRepositoryLink(target)
          : problemWithLocalLink(file, target);
        if (problem) broken.push(`${file}:${line} ${target}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** A link relative to a Markdown file: the file or folder must exist, an anchor must be a heading of it. */
function problemWithLocalLink(fromFile: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2);
  const resolved = path === '' ? join(root, fromFile) : resolve(dirname(join(root, fromFile)), decodeURIComponent(path));
  if (!resolved.startsWith(root)) return 'leaves the repository';
  if (!existsSync(resolved)) return `${relative(root, resolved)} does not exist`;
  if (anchor === undefined) return null;
  const markdownFile = statSync(resolved).isDirectory() ? join(resolved, 'README.md') : resolved;
  if (!markdownFile.endsWith('.md') || !existsSync(markdownFile)) return `#${anchor} points into ${relative(root, markdownFile)}, which is no Markdown`;
  return anchorsOf(readFileSync(markdownFile, 'utf8')).has(anchor) ? null : `${relative(root, markdownFile)} has no heading #${anchor}`;
}

describe('GitHub heading slugs', () => {
  it.each([
    ['Credentials', 'credentials'],
    ['`npm start` — the playground', 'npm-start--the-playground'],
    ['n8n package (`n8n-nodes-shortlink`)', 'n8n-package-n8n-nodes-shortlink'],
    ['Zapier app: versions, `migrate`, `promote`', 'zapier-app-versions-migrate-promote'],
    ['[Linked](https://example.org) *title*', 'linked-title'],
    ['Äpfel & Birnen 2.0', 'äpfel--birnen-20'],
  ])('%j → %j', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings and reads explicit ids, not headings inside code', () => {
    const anchors = anchorsOf('# Setup\n## Setup\n```\n# not a heading\n```\n<a id="custom"></a>\n');
    expect([...anchors].sort()).toEqual(['custom', 'setup', 'setup-1']);
  });

  it('finds a broken anchor (the check can fail)', () => {
    expect(problemWithRepositoryLink(`${REPOSITORY}/blob/main/packages/n8n-nodes-shortlink/README.md#no-such-section`)).toMatch(/has no heading/);
    expect(problemWithRepositoryLink(`${REPOSITORY}/blob/main/packages/n8n-nodes-shortlink/MISSING.md`)).toMatch(/does not exist/);
    expect(problemWithLocalLink('README.md', 'docs/architecture.md#no-such-heading')).toMatch(/has no heading/);
  });
});
