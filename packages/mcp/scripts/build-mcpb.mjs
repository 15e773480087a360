// The desktop-extension bundle (build/shortlink-mcp.mcpb), for Claude Desktop and other MCPB hosts:
// - server/index.js: the server with the core AND the MCP SDK bundled (a bundle installs no node_modules);
// - manifest.json: mcpb/manifest.json (it asks for the service address and the API key, the key as a
//   sensitive field) plus the tools and prompts the bundled server itself lists over stdio, so the manifest
//   cannot name a tool the server lacks;
// then the official tool validates the manifest (`mcpb validate`) and packs the folder (`mcpb pack`).
// Run by `npm run build:mcpb` and by the gates (`npm test`).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

export async function buildMcpb() {
  const out = join(packageDir, 'build');
  const folder = join(out, 'mcpb');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(join(folder, 'server'), { recursive: true });
  const entry = join(folder, 'server', 'index.js');
  await build({ entryPoints: [join(packageDir, 'src', 'cli.ts')], outfile: entry, bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', logLevel: 'warning', minify: true });

  // What the bundled server lists, asked the way a desktop host asks: over stdio, with the SDK's client.
  const { Client } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/index.js')).href);
  const { StdioClientTransport } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/stdio.js')).href);
  const client = new Client({ name: 'shortlink-mcp-build', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry, '--no-check'],
      // A placeholder service: nothing is sent while tools and prompts are listed.
      env: { PATH: process.env.PATH ?? '', SHORTLINK_BASE_URL: 'https://short.example.com', SHORTLINK_API_KEY: 'listing-only-placeholder-key' },
      stderr: 'ignore',
    }),
  );
  const { tools } = await client.listTools();
  const { prompts } = await client.listPrompts();
  const promptTexts = await Promise.all(
    prompts.map(async (prompt) => {
      const args = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, `\${arguments.${argument.name}}`]));
      const got = await client.getPrompt({ name: prompt.name, arguments: args });
      return { name: prompt.name, description: prompt.description ?? '', arguments: (prompt.arguments ?? []).map((argument) => argument.name), text: got.messages.map((message) => message.content.text).join('\n') };
    }),
  );
  await client.close();

  const manifest = JSON.parse(readFileSync(join(packageDir, 'mcpb', 'manifest.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  manifest.version = pkg.version;
  manifest.tools = tools.map(({ name, description }) => ({ name, description }));
  manifest.tools_generated = false;
  manifest.prompts = promptTexts;
  writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // The package exports no package.json: its CLI is found from the entry it does export.
  const mcpb = join(dirname(require.resolve('@anthropic-ai/mcpb')), 'cli', 'cli.js');
  const validated = execFileSync(process.execPath, [mcpb, 'validate', join(folder, 'manifest.json')], { encoding: 'utf8' });
  const file = join(out, `${pkg.name}.mcpb`);
  rmSync(file, { force: true });
  execFileSync(process.execPath, [mcpb, 'pack', folder, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { file, bytes: statSync(file).size, manifest, validated: validated.trim(), entryBytes: statSync(entry).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { file, bytes, manifest } = await buildMcpb();
  console.log(`${file}: ${(bytes / 1024).toFixed(0)} KB, ${manifest.tools.length} tools, ${manifest.prompts.length} prompts`);
}
