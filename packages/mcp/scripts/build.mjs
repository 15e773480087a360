// Build: one CommonJS file, dist/cli.js, with the core bundled in (the core is a private workspace
// package); the MCP SDK stays a dependency that npm installs. Runs with plain Node, as `npx shortlink-mcp`.
import { build } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(packageDir, 'dist');
await rm(dist, { recursive: true, force: true });
const outfile = join(dist, 'cli.js');
await build({
  entryPoints: [join(packageDir, 'src', 'cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['@modelcontextprotocol/sdk'],
  legalComments: 'none',
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
