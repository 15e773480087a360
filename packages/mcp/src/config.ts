/**
 * Where the server finds the service and the key: the environment (SHORTLINK_BASE_URL, SHORTLINK_API_KEY)
 * or a JSON config file ({"baseUrl": …, "apiKey": …}, path in --config or SHORTLINK_MCP_CONFIG); the
 * environment wins, field by field. The base URL follows the hosts' rules (core http/base-url.ts: https,
 * plain http only on loopback). Every message names the setting and never repeats the key.
 */
import { readFileSync, statSync } from 'node:fs';
import { normalizeBaseUrl } from '@shortlink/core/host';
import { ShortLinkError } from '@shortlink/core/portable';

export interface ServerConfig {
  baseUrl: string;
  /** Absent only on a server that takes each request's key (--per-request-key) and has none of its own. */
  apiKey?: string;
  timeZone: string;
  /** Time limit of one tool call with all its requests and waits, ms. */
  callTimeoutMs: number;
  /** The team's UTM presets and rules (core forms/utm-rules.ts): `utmPresets` in the file or SHORTLINK_UTM_PRESETS. */
  utmPresets?: string;
}

/**
 * An agent waits on a tool call: a whole-account lookup may take this long by default, no more. Inside the
 * 60 s a client built on the MCP SDK waits by default, so the agent gets the answer (or the reason there is
 * none) rather than its own timeout.
 */
export const DEFAULT_TOOL_TIMEOUT_SECONDS = 55;

/** A configuration the server cannot start with; the message says which setting to fix. */
export class ConfigError extends Error {}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * A file holding a secret (the config file with the key, the HTTP token file) must be readable by its owner
 * only, as ssh does for its keys: a file others can read is refused with the command that fixes it.
 * Windows has no such mode bits; there the check is skipped.
 */
export function checkPrivateFile(path: string, what: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    throw new ConfigError(`Cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
  if ((mode & 0o077) !== 0) {
    const who = (mode & 0o007) !== 0 ? 'everyone on this machine' : 'its group';
    throw new ConfigError(`The ${what} ${path} can be read by ${who} (mode ${(mode & 0o777).toString(8)}), and it holds a secret. Make it yours only: chmod 600 ${path}`);
  }
}

function readConfigFile(path: string): Record<string, unknown> {
  checkPrivateFile(path, 'config file');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message may quote the file, key included: only say where to look.
    throw new ConfigError(`The config file ${path} is not valid JSON. Expected {"baseUrl": "https://…", "apiKey": "…"}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`The config file ${path} must hold one JSON object: {"baseUrl": "https://…", "apiKey": "…"}.`);
  }
  return parsed as Record<string, unknown>;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The UTM presets the server's config keeps (issue 37): text, one a line, or in the file a list of lines.
 * Kept with the server's account settings, so every agent on the server tags as the team's n8n and Zapier do.
 */
function utmPresetsOf(env: Environment, file: Record<string, unknown>): { utmPresets?: string } {
  const fromFile = Array.isArray(file.utmPresets) ? file.utmPresets.map(String).join('\n') : textOf(file.utmPresets);
  const text = textOf(env.SHORTLINK_UTM_PRESETS) ?? fromFile;
  return text === undefined || text.trim() === '' ? {} : { utmPresets: text };
}

export function loadConfig(env: Environment, configPath?: string, keyOptional = false): ServerConfig {
  const path = configPath ?? textOf(env.SHORTLINK_MCP_CONFIG);
  const file = path ? readConfigFile(path) : {};
  const rawBaseUrl = textOf(env.SHORTLINK_BASE_URL) ?? textOf(file.baseUrl);
  const apiKey = textOf(env.SHORTLINK_API_KEY) ?? textOf(file.apiKey);
  const from = path ? ` or "baseUrl" in ${path}` : ' (or "baseUrl" in a config file given with --config)';
  if (!rawBaseUrl) throw new ConfigError(`Set SHORTLINK_BASE_URL${from}: the address of the service without /api/v1, e.g. https://short.example.com.`);
  if (!apiKey && !keyOptional) {
    throw new ConfigError(
      `Set SHORTLINK_API_KEY${path ? ` or "apiKey" in ${path}` : ' (or "apiKey" in a config file given with --config)'}: an API key of the account, from the dashboard, section "API" (it is shown once).`,
    );
  }
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(rawBaseUrl);
  } catch (error) {
    throw new ConfigError(`SHORTLINK_BASE_URL: ${error instanceof ShortLinkError ? error.message.replace(/^baseUrl /, 'the base URL ') : String(error)}`);
  }
  const seconds = Number(textOf(env.SHORTLINK_TOOL_TIMEOUT_SECONDS) ?? DEFAULT_TOOL_TIMEOUT_SECONDS);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new ConfigError('SHORTLINK_TOOL_TIMEOUT_SECONDS must be a number of seconds above 0, e.g. 55.');
  return { baseUrl, ...(apiKey ? { apiKey } : {}), timeZone: textOf(env.SHORTLINK_TIME_ZONE) ?? 'UTC', callTimeoutMs: Math.round(seconds * 1000), ...utmPresetsOf(env, file) };
}
