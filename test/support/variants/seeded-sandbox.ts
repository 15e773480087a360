/**
 * A sandbox whose demo account already holds many links, written straight into its store (a data file it
 * loads at start) instead of created through the API: an account as users bring it, in milliseconds.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';

export interface SeededSandbox {
  sandbox: Sandbox;
  /** The demo account's key (business plan). */
  apiKey: string;
  accountId: string;
  /** The seeded links' target URLs, oldest first. */
  targets: string[];
  close(): Promise<void>;
}

export const SEEDED_DOMAIN = 'go.example.org';

export async function startSeededSandbox(links: number, label = 'variant'): Promise<SeededSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlink-seeded-'));
  const apiKey = `sl_seeded_${label.replace(/[^A-Za-z0-9]/g, '')}_${'0'.repeat(24)}`;
  const accountId = '1001';
  const start = Date.now() - (links + 60) * 1000;
  const at = (index: number) => new Date(start + index * 1000).toISOString();
  const targets = Array.from({ length: links }, (_, index) => `https://example.org/${label}/${index}`);
  const state = {
    version: 1,
    nextId: 2001 + links,
    demoAccountId: accountId,
    accounts: [{ id: accountId, name: 'Seeded Business', email: 'seeded@example.com', plan: 'business', createdAt: at(0) }],
    keyHashes: { [createHash('sha256').update(apiKey, 'utf8').digest('hex')]: accountId },
    domains: [{ id: '1002', accountId, hostname: SEEDED_DOMAIN, verified: true, createdAt: at(0) }],
    links: targets.map((targetUrl, index) => ({
      id: String(2001 + index),
      accountId,
      slug: `${label.replace(/[^A-Za-z0-9]/g, '').slice(0, 20) || 'v'}-${index}`,
      targetUrl,
      title: `Seeded ${index}`,
      domain: null,
      active: true,
      blocked: false,
      passwordHash: null,
      expiresAt: null,
      createdAt: at(index + 1),
    })),
    clicks: [],
  };
  const dataFile = join(dir, 'state.json');
  writeFileSync(dataFile, JSON.stringify(state));
  const sandbox = await startSandbox({ dataFile, demoApiKey: apiKey, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  return {
    sandbox,
    apiKey,
    accountId,
    targets,
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
