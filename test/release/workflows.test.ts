/**
 * The GitHub Actions workflows: the linter that `npm run lint:workflows` runs in `npm test` finds real mistakes,
 * and each workflow does what RELEASING.md says it does.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { lintWorkflow, workflowFiles } from '../../scripts/workflows/lint';

const root = resolve(__dirname, '..', '..');
const workflow = (name: string) => readFileSync(join(root, '.github', 'workflows', name), 'utf8');
/** The commands of a workflow's `run:` steps (single-line ones; these workflows have no other). */
const runCommands = (text: string) => [...text.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((m) => m[1].trim());

describe('the workflow linter', () => {
  it('finds the mistakes of a broken workflow', async () => {
    const broken = [
      'name: Broken',
      'on:',
      '  push:',
      'jobs:',
      '  publish:',
      '    runs-on: ubuntu-latest',
      '    permissions:',
      '      id-token: writ', // not a permission value
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: echo "${{ steps.release.outputs.version }}"', // no step has the id "release"
      '      - name: Publish',
      '        runs: npm publish', // "runs" is no key of a step
      '',
    ].join('\n');
    const findings = await lintWorkflow(broken, '.github/workflows/broken.yml');
    expect(findings.map((f) => [f.line, f.kind])).toEqual([
      [8, 'permissions'],
      [11, 'expression'],
      [12, 'syntax-check'], // the step has neither run nor uses
      [13, 'syntax-check'],
    ]);
    expect(findings[0].message).toMatch(/"writ" is invalid/);
  });

  it('passes a correct workflow', async () => {
    const correct = 'on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n      - run: .ci/run\n';
    expect(await lintWorkflow(correct, '.github/workflows/correct.yml')).toEqual([]);
  });

  it('is given every workflow of the repository', () => {
    expect(workflowFiles(root).map((file) => file.slice(root.length + 1))).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/release-n8n.yml',
      '.github/workflows/release-zapier.yml',
    ]);
  });
});

describe('CI', () => {
  const ci = workflow('ci.yml');

  it('runs on pushes and pull requests', () => {
    expect(ci).toMatch(/^on:\n {2}push:\n {2}pull_request:\n/m);
  });

  it('runs exactly .ci/run', () => {
    expect(runCommands(ci)).toEqual(['.ci/run']);
  });
});

describe('the n8n release', () => {
  const release = workflow('release-n8n.yml');

  it('runs on the package tag only', () => {
    expect(release).toMatch(/^on:\n {2}push:\n {4}tags:\n {6}- 'n8n-nodes-shortlink@\*'\n\n/m);
  });

  it('writes the package\'s own repository and pushes the tag there, with a deploy key; it publishes nothing itself', () => {
    expect(runCommands(release)).toEqual(['npm ci', 'npm run sync-standalone -w n8n-nodes-shortlink']);
    expect(release.match(/secrets\.\w+/g)).toEqual(['secrets.N8N_PACKAGE_DEPLOY_KEY']);
    expect(release).not.toMatch(/id-token:|secrets\.NPM_TOKEN/);
  });
});

describe('the Zapier release', () => {
  const release = workflow('release-zapier.yml');

  it('runs on the app tag, validates, builds and pushes with the deploy key from the secrets', () => {
    expect(release).toMatch(/^on:\n {2}push:\n {4}tags:\n {6}- 'shortlink-zapier@\*'\n\n/m);
    expect(runCommands(release)).toEqual(['npm ci', 'npm run release -w shortlink-zapier']);
    expect(release).toContain('ZAPIER_DEPLOY_KEY: ${{ secrets.ZAPIER_DEPLOY_KEY }}');
    expect(release).not.toMatch(/id-token/); // Zapier takes no OIDC token
  });
});
