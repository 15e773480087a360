/**
 * The command: read the configuration, check the key with the service (a revoked key is a startup error,
 * not the first tool call's), then serve over stdio (the default, for desktop clients that start the
 * server) or Streamable HTTP (--http, loopback unless --host names another address and --allow-remote).
 * Log lines go to stderr: on stdio, stdout carries the protocol.
 */
import { AuthenticationError, ForbiddenError, redact, ShortLinkError } from '@shortlink/core/portable';
import { isLoopbackHost } from '@shortlink/core/host';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpAccess } from './access';
import { Accounts, type Account } from './accounts';
import { clientFor } from './client';
import { ConfigError, loadConfig, type Environment } from './config';
import { startHttp } from './http';
import { createShortLinkServer, SERVER_NAME, SERVER_VERSION } from './server';
import { LineGuard, MAX_STDIO_MESSAGE_BYTES } from './stdio';
import { RECONNECT_ADVICE_MCP } from './tool-error';

export const DEFAULT_PORT = 3333;
export const DEFAULT_HOST = '127.0.0.1';

export const USAGE = `Usage: shortlink-mcp [--http] [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--config file.json]

Serves the short-link service's operations as MCP tools: over stdio (default) or Streamable HTTP at /mcp (--http).

Settings (environment, or a JSON config file {"baseUrl": "...", "apiKey": "..."}; the environment wins):
  SHORTLINK_BASE_URL     the service's address without /api/v1 (https; http only for localhost)
  SHORTLINK_API_KEY      an API key of the account (dashboard, section "API")
  SHORTLINK_MCP_CONFIG   path of the config file (same as --config; readable by you only)
  SHORTLINK_TIME_ZONE    time zone of dates typed without one (default UTC)
  SHORTLINK_TOOL_TIMEOUT_SECONDS  time limit of one tool call (default 55)
  SHORTLINK_UTM_PRESETS  the team's UTM presets and rules, one a line (or utmPresets in the file)

HTTP (every request needs the token, an allowed Host and, from a browser, an allowed Origin):
  SHORTLINK_MCP_TOKEN    the bearer token callers send ("Authorization: Bearer <token>"), 24+ characters
  SHORTLINK_MCP_TOKEN_FILE  a file holding the token instead (same as --token-file; readable by you only)
  SHORTLINK_MCP_ALLOWED_HOSTS    more Host names callers use, comma-separated (same as --allowed-host)
  SHORTLINK_MCP_ALLOWED_ORIGINS  more browser origins, comma-separated (same as --allowed-origin)
  SHORTLINK_MCP_PER_REQUEST_KEY  "true": same as --per-request-key

Options:
  --http                 serve Streamable HTTP instead of stdio
  --port N               HTTP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS         HTTP address (default ${DEFAULT_HOST}); another than loopback needs --allow-remote
  --allow-remote         allow --host to be reachable from other machines (the token is still required)
  --allowed-host NAME    a Host name callers use for this server, e.g. shortlink-mcp (repeatable)
  --allowed-origin URL   a browser origin allowed to call, e.g. https://app.example.com (repeatable)
  --token-file PATH      read the HTTP token from this file
  --per-request-key      serve many accounts: each request's key in the X-Shortlink-Api-Key header
  --no-check             start without checking the key with the service first
  --help, --version`;

export interface CliOptions {
  http: boolean;
  port: number;
  host: string;
  allowRemote: boolean;
  allowedHosts: string[];
  allowedOrigins: string[];
  tokenFile?: string;
  perRequestKey: boolean;
  check: boolean;
  config?: string;
  help: boolean;
  version: boolean;
}

export function parseArgs(argv: readonly string[], env: Environment = {}): CliOptions {
  const options: CliOptions = {
    http: false,
    port: DEFAULT_PORT,
    host: DEFAULT_HOST,
    allowRemote: false,
    allowedHosts: [],
    allowedOrigins: [],
    perRequestKey: /^(1|true|yes)$/i.test(env.SHORTLINK_MCP_PER_REQUEST_KEY?.trim() ?? ''),
    check: true,
    help: false,
    version: false,
  };
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
    else if (arg === '--allowed-host') options.allowedHosts.push(value());
    else if (arg === '--allowed-origin') options.allowedOrigins.push(value());
    else if (arg === '--token-file') options.tokenFile = value();
    else if (arg === '--per-request-key') options.perRequestKey = true;
    else if (arg === '--no-check') options.check = false;
    else if (arg === '--config') options.config = value();
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--version') options.version = true;
    else throw new ConfigError(`Unknown option ${arg.slice(0, 60)}. See --help.`);
  }
  if (options.http && !isLoopbackHost(options.host) && !options.allowRemote) {
    throw new ConfigError(`--host ${options.host} is not a loopback address: anyone who reaches it could call the server. Add --allow-remote if that is intended (callers still need the token).`);
  }
  if (options.perRequestKey && !options.http) throw new ConfigError('--per-request-key needs --http: over stdio the server has one caller, and its key is SHORTLINK_API_KEY.');
  return options;
}

/** The key's first use: a refused key or an unreachable service stops the start with what to fix. */
async function checkKey(account: Account): Promise<void> {
  try {
    await account.client.getAccount();
  } catch (error) {
    if (error instanceof AuthenticationError) throw new ConfigError(`The service refused the API key (${error.message}). ${RECONNECT_ADVICE_MCP}`);
    if (error instanceof ForbiddenError) throw new ConfigError(`The service refused access for this key: ${error.message}`);
    if (error instanceof ShortLinkError) throw new ConfigError(`Cannot check the API key with the service: ${error.message} (start with --no-check to skip this check).`);
    throw error;
  }
}

export interface Io {
  log: (line: string) => void;
  /** Where stdio reads and writes (default the process's). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Runs the command; resolves once serving (stdio: when the transport is connected). */
export async function main(argv: readonly string[], env: Environment, io: Io): Promise<{ close(): Promise<void> } | undefined> {
  const cli = parseArgs(argv, env);
  if (cli.help) return void io.log(USAGE);
  if (cli.version) return void io.log(SERVER_VERSION);
  const config = loadConfig(env, cli.config, cli.perRequestKey);
  const access = cli.http ? httpAccess({ host: cli.host, allowRemote: cli.allowRemote, allowedHosts: cli.allowedHosts, allowedOrigins: cli.allowedOrigins, tokenFile: cli.tokenFile }, env) : undefined;
  const accounts = new Accounts((apiKey) => clientFor(config, apiKey));
  const serverAccount = config.apiKey ? accounts.forKey(config.apiKey, 'server') : undefined;
  const secrets = serverAccount?.secrets ?? [];
  const log = (line: string): void => io.log(redact(`${SERVER_NAME}: ${line}`, secrets));
  if (cli.check && serverAccount) await checkKey(serverAccount);
  const common = { timeZone: config.timeZone, callTimeoutMs: config.callTimeoutMs, ...(config.utmPresets ? { utmPresets: config.utmPresets } : {}) };
  if (access) {
    const http = await startHttp({ ...common, host: cli.host, port: cli.port, log, access, accounts, perRequestKey: cli.perRequestKey, ...(serverAccount ? { serverAccount } : {}) });
    const keys = cli.perRequestKey ? `each request's key${serverAccount ? ', else its own' : ''}` : 'its own key';
    log(`ready on ${http.url} (service ${config.baseUrl}; acting with ${keys}; callers need the token)`);
    return { close: http.close };
  }
  const server = createShortLinkServer({ ...common, account: serverAccount! });
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const guarded = stdin.pipe(
    new LineGuard((bytes, id) => {
      log(`refused a message of ${(bytes / 1024 / 1024).toFixed(1)} MiB on stdin (the limit is ${MAX_STDIO_MESSAGE_BYTES / 1024 / 1024} MiB); serving on.`);
      void transport.send({ jsonrpc: '2.0', id: id as string | number, error: { code: -32600, message: `Message too large: ${bytes} bytes; the limit is ${MAX_STDIO_MESSAGE_BYTES} bytes.` } });
    }),
  );
  const transport = new StdioServerTransport(guarded, stdout as typeof process.stdout);
  transport.onerror = (error) => log(`stdio: ${error.message}`);
  await server.connect(transport);
  log(`ready on stdio (service ${config.baseUrl})`);
  return { close: () => server.close() };
}
