/**
 * packages/n8n-nodes-shortlink/VERIFICATION.md goes through n8n's checklist rule by rule: it must name every
 * rule the installed community-package plugin recommends, so that a plugin update cannot add an unlisted one.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const verification = readFileSync(join(root, 'packages/n8n-nodes-shortlink/VERIFICATION.md'), 'utf8');

/** The plugin is an ES module: ask a child Node for its recommended rules. */
function recommendedRules(): string[] {
  const script =
    "import { n8nCommunityNodesPlugin as p } from '@n8n/eslint-plugin-community-nodes';" +
    'console.log(JSON.stringify(Object.keys(p.configs.recommended.rules)));';
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout).map((id: string) => id.slice(id.lastIndexOf('/') + 1));
}

describe('VERIFICATION.md', () => {
  const rules = recommendedRules();

  it('has a row for every recommended rule of the community-package plugin', () => {
    expect(rules.length).toBeGreaterThan(30);
    const rows = new Set([...verification.matchAll(/^\| `([a-z0-9-]+)`/gm)].map((m) => m[1]));
    expect(rules.filter((rule) => !rows.has(rule))).toEqual([]);
  });

  it('every guideline row has evidence, or says it is a maintainer step', () => {
    for (const heading of ['## Publishing rule (since 1 May 2026)', '## Verification guidelines', '## UX guidelines']) {
      const section = verification.split(`\n${heading}\n`)[1]!.split('\n## ')[0]!;
      const rows = section.split('\n').filter((line) => line.startsWith('| ') && !/^\|[-| ]+\|$/.test(line)).slice(1);
      expect(rows.length).toBeGreaterThan(4);
      for (const row of rows) {
        const [guideline, status, evidence] = row.slice(1, -1).split(' | ').map((cell) => cell.trim());
        const ok = Boolean(guideline) && Boolean(status) && (Boolean(evidence) || /maintainer step|see \[/.test(`${status} ${evidence ?? ''}`));
        expect([heading, guideline, ok]).toEqual([heading, guideline, true]);
      }
    }
    expect(verification).toMatch(/\| Submitted through n8n's Creator Portal \| \*\*maintainer step\*\*/);
  });

  it('covers the publishing rule, the verification guidelines and the UX guidelines', () => {
    for (const heading of ['## Publishing rule (since 1 May 2026)', '## Verification guidelines', '## The community-package scanner', '## UX guidelines']) {
      expect(verification).toContain(`\n${heading}\n`);
    }
  });
});
