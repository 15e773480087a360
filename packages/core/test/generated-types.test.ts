/** The committed generated types must match what openapi-typescript makes of the document today. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

test('packages/core/src/generated/openapi.ts is up to date (run `npm run generate:types`)', () => {
  const cli = path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
  const fresh = execFileSync(process.execPath, [cli, 'openapi/short-link-api.yaml'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const committed = readFileSync(path.join(ROOT, 'packages/core/src/generated/openapi.ts'), 'utf8');
  expect(committed).toBe(fresh);
  // The public types are aliases of these components.
  expect(fresh).toMatch(/LinkCreated: \{/);
  expect(fresh).toMatch(/Link: \{/);
});
