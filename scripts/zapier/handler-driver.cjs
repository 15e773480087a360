#!/usr/bin/env node
// Runs operations through the handler of a built Zapier zip, the entry point Zapier's own runtime calls:
//   node scripts/zapier/handler-driver.cjs packages/zapier/build/build.zip
// The zip is unpacked with the Zapier CLI's own unzip (the one its "Testing build" step uses) into a
// temporary folder. Then one JSON request per stdin line ({ id, method, bundle }) gets one JSON answer per
// stdout line ({ id, ok, result | error, logs }). z.cache lives in this process between requests, as
// Zapier's cache lives between polls. It runs in its own process because the handler rewrites
// process.env and patches http.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { createInterface } = require('node:readline');

const zipPath = resolve(process.argv[2] || '');
const decompress = require(require.resolve('zapier-platform-cli/src/utils/decompress', { paths: [resolve(__dirname, '..', '..', 'packages', 'zapier')] }));

// Answers go to stdout; anything the app or the platform prints goes to stderr.
const answer = process.stdout.write.bind(process.stdout);
console.log = console.info = (...args) => process.stderr.write(`${args.join(' ')}\n`);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'shortlink-zapier-zip-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  await decompress(zipPath, dir);
  const { handler } = require(join(dir, 'zapierwrapper.js'));
  const zcache = {};
  answer(`${JSON.stringify({ ready: true })}\n`);

  const lines = createInterface({ input: process.stdin });
  // One request at a time, in order: like a Zap's steps.
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const { id, method, bundle } = JSON.parse(line);
      const logs = [];
      const event = {
        command: 'execute',
        method,
        bundle,
        zcacheTestObj: zcache,
        customLogger: (message) => logs.push(String(message)),
      };
      try {
        const result = await handler(event, {});
        answer(`${JSON.stringify({ id, ok: true, result, logs })}\n`);
      } catch (error) {
        answer(`${JSON.stringify({ id, ok: false, error: { name: error && error.name, message: String(error && error.message) }, logs })}\n`);
      }
    });
  });
  lines.on('close', () => queue.then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
