/**
 * A headless Chromium for tests of n8n's editor: Debian's `chromium` package driven by playwright-core
 * (nothing downloads a browser build). `.ci/run` installs the package; without it the tests stop at once and
 * say what is missing and how to get it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary: SHORTLINK_CHROMIUM, else Debian's package. */
export const CHROMIUM = process.env.SHORTLINK_CHROMIUM || '/usr/bin/chromium';

/**
 * Flags that work on a machine without outside network: no background traffic (its refused connections and
 * failed lookups otherwise pile up), no sandbox (tests run as root), no GPU.
 */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser tests cannot run here, or undefined when they can. */
export function missingBrowser(): string | undefined {
  if (!existsSync(CHROMIUM)) {
    return (
      `The editor test needs Chromium at ${CHROMIUM}, which is missing. Install Debian's package: ` +
      '`apt-get update && apt-get install -y chromium` (as root; `.ci/run` does this), or set SHORTLINK_CHROMIUM to a Chromium binary. ' +
      'Nothing downloads a browser for you (playwright-core brings none).'
    );
  }
  return undefined;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Chromium with a new empty profile, one page of 1440×900. */
export async function launchBrowser(): Promise<Browser> {
  const missing = missingBrowser();
  if (missing) throw new Error(missing);
  const profile = mkdtempSync(join(tmpdir(), 'shortlink-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Screenshots of one test, kept in a git-ignored folder (emptied at the start of the run) for a reviewer. */
export function screenshotFolder(folder: string): (page: Page, name: string) => Promise<string> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return async (page, name) => {
    const file = join(folder, `${name}.png`);
    await page.screenshot({ path: file });
    return file;
  };
}
