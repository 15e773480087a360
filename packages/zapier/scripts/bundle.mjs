// Bundles the app (TypeScript, the portable core and the shared credential) into one CommonJS file,
// dist/app.js, that index.js loads. Zapier's build zips what index.js requires; a workspace link to the
// core's TypeScript sources would not run there. zapier-platform-core stays external: Zapier's wrapper
// loads it from node_modules, and the app must share that one instance (z.errors classes, version).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(root, 'dist/app.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  tsconfig: join(root, 'tsconfig.json'),
  external: ['zapier-platform-core'],
  logLevel: 'warning',
});
console.log('bundled dist/app.js');
