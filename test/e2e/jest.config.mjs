/**
 * End-to-end suite (`npm run test:e2e`): the real n8n runtime, the built Zapier zip and the live-check
 * script against the sandbox. Kept apart from the root jest run (which matches *.test.ts) because it
 * installs n8n on first use and takes minutes, not seconds.
 */
import root from '../../jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...root,
  rootDir: '../..',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.e2e.ts'],
  verbose: true,
  // One real n8n at a time: two cores are shared, and each suite starts its own processes.
  maxWorkers: 1,
  testTimeout: 300_000,
  // The first run installs n8n (minutes) here, so that no test's timeout has to cover it.
  globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
};
