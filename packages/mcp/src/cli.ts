#!/usr/bin/env node
/** The bin: `npx shortlink-mcp [--http]`. Errors are one line on stderr and exit code 1 (never the key). */
import { redact } from '@shortlink/core/portable';
import { ConfigError } from './config';
import { main } from './main';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

main(process.argv.slice(2), process.env, { log }).catch((error: unknown) => {
  const key = process.env.SHORTLINK_API_KEY;
  const text = error instanceof ConfigError ? error.message : `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  log(redact(`shortlink-mcp: ${text}`, key ? [key] : []));
  process.exit(1);
});
