/**
 * The command: read the configuration, check the key with the service (a revoked key is a startup error,
 * not the first tool call's), then serve over stdio (the default, for desktop clients that start the
 * server) or Streamable HTTP (--http, loopback unless --host names another address and --allow-remote).
 * Log lines go to stderr: on stdio, stdout carries the protocol.
 */
import { AuthenticationError, ForbiddenError, isLoopbackHost, redact, ShortLinkError } from '@shortlink/core/portable';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { clientFor } from './client';
import { ConfigError, loadConfig, type Environment } from './config';
import { startHttp } from './http';
import { createShortLinkServer, SERVER_NAME, SERVER_VERSION, type ShortLinkServerOptions } from './server';
import { RECONNECT_ADVICE_MCP } from './tool-error';

export const DEFAULT_PORT = 3333;
export const DEFAULT_HOST = '127.0.0.1';

export const USAGE = `Usage: shortlink-mcp [--http] [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--config file.json]

Serves the short-link service's operations as MCP tools: over stdio (default) or Streamable HTTP at /mcp (--http).

Settings (environment, or a JSON config file {"baseUrl": "...", "apiKey": "..."}; the environment wins):
  SHORTLINK_BASE_URL     the service's address without /api/v1 (https; http only for localhost)
  SHORTLINK_API_KEY      an API key of the account (dashboard, section "API")
  SHORTLINK_MCP_CONFIG   path of the config file (same as --config)
  SHORTLINK_TIME_ZONE    time zone of dates typed without one (default UTC)
  SHORTLINK_TOOL_TIMEOUT_SECONDS  time limit of one tool call (default 120)

Options:
  --http                 serve Streamable HTTP instead of stdio
  --port N               HTTP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS         HTTP address (default ${DEFAULT_HOST}); another than loopback needs --allow-remote
  --allow-remote         allow --host to be reachable from other machines: anyone who reaches it uses your key
  --no-check             start without checking the key with the service first
  --help, --version`;

export interface CliOptions {
  http: boolean;
  port: number;
  host: string;
  allowRemote: boolean;
  check: boolean;
  config?: string;
  help: boolean;
  version: boolean;
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { http: false, port: DEFAULT_PORT, host: DEFAULT_HOST, allowRemote: false, check: true, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new ConfigError(`${arg} needs a value.`);
      return next;
    };
    if (arg === '--http') options.http = true;
    else if (arg === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port must be a whole number from 0 to 65535.`);
      options.port = port;
    } else if (arg === '--host') options.host = value();
    else if (arg === '--allow-remote') options.allowRemote = true;
    else if (arg === '--no-check') options.check = false;
    else if (arg === '--config') options.config = value();
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--version') options.version = true;
    else throw new ConfigError(`Unknown option ${arg}. See --help.`);
  }
  if (options.http && !isLoopbackHost(options.host) && !options.allowRemote) {
    throw new ConfigError(`--host ${options.host} is not a loopback address: anyone who reaches it could use your API key. Add --allow-remote if that is intended (behind your own authentication).`);
  }
  return options;
}

/** The key's first use: a refused key or an unreachable service stops the start with what to fix. */
async function checkKey(options: ShortLinkServerOptions): Promise<void> {
  try {
    await options.client.getAccount();
  } catch (error) {
    if (error instanceof AuthenticationError) throw new ConfigError(`The service refused the API key (${error.message}). ${RECONNECT_ADVICE_MCP}`);
    if (error instanceof ForbiddenError) throw new ConfigError(`The service refused access for this key: ${error.message}`);
    if (error instanceof ShortLinkError) throw new ConfigError(`Cannot check the API key with the service: ${error.message} (start with --no-check to skip this check).`);
    throw error;
  }
}

export interface Io {
  log: (line: string) => void;
}

/** Runs the command; resolves once serving (stdio: when the transport is connected). */
export async function main(argv: readonly string[], env: Environment, io: Io): Promise<{ close(): Promise<void> } | undefined> {
  const cli = parseArgs(argv);
  if (cli.help) return void io.log(USAGE);
  if (cli.version) return void io.log(SERVER_VERSION);
  const config = loadConfig(env, cli.config);
  const secrets = [config.apiKey];
  const options: ShortLinkServerOptions = { client: clientFor(config), secrets, timeZone: config.timeZone, ...(config.utmPresets ? { utmPresets: config.utmPresets } : {}) };
  const log = (line: string): void => io.log(redact(`${SERVER_NAME}: ${line}`, secrets));
  if (cli.check) await checkKey(options);
  if (cli.http) {
    const { server, url } = await startHttp({ ...options, host: cli.host, port: cli.port, log });
    log(`ready on ${url} (service ${config.baseUrl})`);
    return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const server = createShortLinkServer(options);
  await server.connect(new StdioServerTransport());
  log(`ready on stdio (service ${config.baseUrl})`);
  return { close: () => server.close() };
}
