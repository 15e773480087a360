/**
 * Links a user can click: package metadata, the credential's documentation link, the nodes' codex links and
 * the Markdown documentation. The repository's address is named once, in the root package.json; every other
 * mention must agree with it, and every link into the repository must reach a file and a heading that exist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { shortLinkCredential } from '@shortlink/core/host';
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

/**
 * A path in backticks in the Markdown (`creating/exactly-once-creator.ts`, `src/adapter/step.ts`,
 * `packages/core/src/types.ts`) names a file or folder of the repository: read from the repository's root,
 * the Markdown file's folder, a package or a package's src folder (a room of the core is named from
 * packages/core/src). A path counts as one when its first folder is one of those places' own; what a run
 * writes (ignored by git) may be absent. A bare file name of code (`lookups.ts`) must name a file of the
 * repository. Code blocks are left out (commands, output).
 */
function ignoredByGit(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

export function backtickedPathProblems(file: string, text: string, tracked: ReadonlySet<string>): string[] {
  const baseNames = new Set([...tracked].map((path) => path.split('/').pop()!));
  const packages = readdirSync(join(root, 'packages')).map((name) => `packages/${name}`);
  const bases = [...new Set(['', dirname(file), ...packages, ...packages.map((dir) => `${dir}/src`)])];
  const exists = (base: string, path: string) => existsSync(join(root, base, path));
  const problems: string[] = [];
  const prose = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
    const span = match[1]!.trim();
    if (!/^[\w][\w./-]*$/.test(span) || span.includes('//') || span.includes('..')) continue;
    const line = prose.slice(0, match.index).split('\n').length;
    if (span.includes('/')) {
      const [first] = span.split('/');
      // A host name (www.example.com/page), a media type or an API path is no file of the repository.
      if (first!.includes('.') || ['application', 'text', 'image'].includes(first!)) continue;
      const places = bases.filter((base) => exists(base, first!));
      if (places.length === 0 || places.some((base) => exists(base, span.replace(/\/$/, '')))) continue;
      // What a run writes (bench/results.json, screenshots) is ignored by git, not missing.
      if (ignoredByGit(span)) continue;
      problems.push(`${file}:${line} \`${span}\` does not exist`);
    } else if (/\.(ts|mjs|cjs)$/.test(span) && !baseNames.has(span)) {
      problems.push(`${file}:${line} \`${span}\` names no file of the repository`);
    }
  }
  return problems;
}

describe('paths named in the documentation', () => {
  const tracked = new Set(files('.'));
  it('every backticked path in the Markdown is a file or folder of the repository', () => {
    const problems = files('*.md')
      .filter((file) => !file.includes('node_modules/'))
      .flatMap((file) => backtickedPathProblems(file, readFileSync(join(root, file), 'utf8'), tracked));
    expect(problems).toEqual([]);
  });

  it('finds a path that is gone (the check can fail)', () => {
    expect(backtickedPathProblems('docs/architecture.md', 'See `creating/exactly-once-creator.ts`, `src/adapter/step.ts` and `lookups.ts`.', tracked)).toEqual([]);
    expect(backtickedPathProblems('docs/architecture.md', 'See `creating/no-such-file.ts`.', tracked)).toEqual(['docs/architecture.md:1 `creating/no-such-file.ts` does not exist']);
    expect(backtickedPathProblems('packages/core/README.md', 'See `src/pacer.ts` and `gone-away.ts`; `www.example.com/page` is a URL.', tracked)).toEqual([
      'packages/core/README.md:1 `src/pacer.ts` does not exist',
      'packages/core/README.md:1 `gone-away.ts` names no file of the repository',
    ]);
  });
});
