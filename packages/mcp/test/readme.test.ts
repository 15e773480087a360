/**
 * The package README says what the code does: its tool table lists exactly the tools the server lists, in
 * order; its prompts are the server's; every setting it names is one the bin's --help names (and the
 * reverse); the limits it states are the code's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_QUOTED_INPUT } from '@shortlink/core/host';
import { USAGE } from '../src/main';
import { PROMPTS } from '../src/prompts';
import { shortLinkTools } from '../src/tools';
import { DEFAULT_TOOL_TIMEOUT_SECONDS } from '../src/config';
import { MIN_TOKEN_LENGTH } from '../src/access';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const section = (heading: string): string => readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';

test('the tool table lists the tools the server lists, in its order', () => {
  const rows = [...section('Tools').matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
  expect(rows).toEqual(shortLinkTools().map((tool) => tool.name));
});

test('the prompts are the server\'s', () => {
  const named = [...section('Prompts').matchAll(/^- `([a-z_]+)`/gm)].map((match) => match[1]);
  expect(named).toEqual(PROMPTS.map((prompt) => prompt.name));
});

test('every setting in the table is one --help names, and every one --help names is in the table', () => {
  const inTable = new Set([...section('Settings').matchAll(/`(SHORTLINK_[A-Z_]+)/g)].map((match) => match[1]));
  const inHelp = new Set([...USAGE.matchAll(/\b(SHORTLINK_[A-Z_]+)/g)].map((match) => match[1]));
  expect([...inTable].sort()).toEqual([...inHelp].sort());
  for (const flag of USAGE.matchAll(/^\s+(--[a-z-]+)/gm)) {
    if (!['--help', '--version', '--port', '--host', '--http', '--no-check', '--config'].includes(flag[1]!)) expect(readme).toContain(flag[1]);
  }
});

test('the limits it states are the code\'s', () => {
  expect(section('Settings')).toContain(`Default ${DEFAULT_TOOL_TIMEOUT_SECONDS}, inside the 60 seconds`);
  expect(section('Settings')).toContain(`at least ${MIN_TOKEN_LENGTH} characters`);
  expect(section('Tools')).toContain(`cut to ${MAX_QUOTED_INPUT} characters`);
});
