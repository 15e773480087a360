/** One jest run for every package: unit tests beside each package, cross-package tests in test/. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.base.json', diagnostics: false }] },
  moduleNameMapper: {
    '^@shortlink/core$': '<rootDir>/packages/core/src/index.ts',
    '^@shortlink/core/(operations|host)$': '<rootDir>/packages/core/src/faces/$1.ts',
    '^@shortlink/core/(.*)$': '<rootDir>/packages/core/src/$1',
    '^@shortlink/sandbox$': '<rootDir>/packages/sandbox/src/index.ts',
  },
  testTimeout: 30000,
  // Every nock reply under /api/v1/ is checked against the OpenAPI document (see the file).
  setupFilesAfterEnv: ['<rootDir>/test/support/nock-contract.ts'],
  // The sandbox is on loopback: the Zapier app's local-development switch (packages/zapier/src/baseUrl.ts).
  setupFiles: ['<rootDir>/test/support/zapier-local-dev.ts'],
};
