/**
 * One real n8n instance on this machine: its own user folder (database, encryption key, installed
 * community packages), driven through n8n's own CLI and REST API. Used by `npm start` and the
 * end-to-end tests alike, so the playground is exactly what the tests prove.
 *
 * In queue mode (`queue`: Redis and Postgres, see queue-services.ts) one instance is the main process
 * (`start()`: editor, webhooks, trigger polls) and others with the same encryption key are workers
 * (`startWorker()`: `n8n worker`, which run the executions the main puts on the queue).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChild } from './run-child';
import { n8nMajor, node24Env, nodeBinary, type Log, type N8nRuntime } from './runtime';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CredentialInput {
  id: string;
  name: string;
  apiKey: string;
  baseUrl: string;
}

/** Where a queue-mode n8n finds its queue and its shared database. */
export interface QueueModeSettings {
  redis: { host: string; port: number };
  postgres: { host: string; port: number; database: string; user: string; password: string };
}

export interface N8nInstanceOptions {
  runtime: N8nRuntime;
  userFolder: string;
  /** HTTP port of the editor (`n8n start`), or of a worker's health server (`n8n worker`). */
  port?: number;
  /** Task broker port: every n8n process that runs at the same time needs its own. */
  brokerPort?: number;
  /** Kept in the user folder so a restart can decrypt the credentials. Queue mode: the same for every process. */
  encryptionKey?: string;
  /** Queue mode: Redis and Postgres shared by the main process and its workers. */
  queue?: QueueModeSettings;
  /** The instance's time zone (GENERIC_TIMEZONE), which workflows use unless their settings name another; n8n's default is America/New_York. */
  timezone?: string;
  log?: Log;
}

/** Workflow as exported by n8n: the parts this project reads and rewrites. */
export interface WorkflowJson {
  id?: string;
  name: string;
  nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; credentials?: Record<string, { id: string; name: string }>; [key: string]: unknown }>;
  connections: Record<string, unknown>;
  [key: string]: unknown;
}

const CREDENTIAL_TYPE = 'shortLinkApi';

export class N8nInstance {
  readonly runtime: N8nRuntime;
  readonly userFolder: string;
  readonly port: number;
  readonly brokerPort: number;
  readonly encryptionKey: string;
  readonly queue: QueueModeSettings | undefined;
  readonly timezone: string | undefined;
  private readonly log: Log;
  private server: ChildProcess | undefined;
  private serverOutput = '';

  constructor(options: N8nInstanceOptions) {
    this.runtime = options.runtime;
    this.userFolder = options.userFolder;
    this.port = options.port ?? 5678;
    this.brokerPort = options.brokerPort ?? 5679;
    this.encryptionKey = options.encryptionKey ?? randomBytes(24).toString('base64url');
    this.queue = options.queue;
    this.timezone = options.timezone;
    this.log = options.log ?? (() => undefined);
    mkdirSync(this.userFolder, { recursive: true });
  }

  get editorUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** n8n's settings: quiet (no telemetry, no update checks), on loopback, in its own folder. */
  env(): NodeJS.ProcessEnv {
    return node24Env({
      N8N_USER_FOLDER: this.userFolder,
      N8N_ENCRYPTION_KEY: this.encryptionKey,
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_HIRING_BANNER_ENABLED: 'false',
      // At warn, `execute --rawOutput` prints no result.
      N8N_LOG_LEVEL: 'info',
      N8N_PORT: String(this.port),
      N8N_HOST: '127.0.0.1',
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_EDITOR_BASE_URL: this.editorUrl,
      N8N_SECURE_COOKIE: 'false',
      N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
      N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
      N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
      DB_SQLITE_POOL_SIZE: '2',
      ...this.queueEnv(),
      ...(this.timezone ? { GENERIC_TIMEZONE: this.timezone } : {}),
    });
  }

  /** n8n's queue-mode settings (empty without `queue`): executions go through Redis, data lives in Postgres. */
  private queueEnv(): NodeJS.ProcessEnv {
    if (!this.queue) return {};
    const { redis, postgres } = this.queue;
    return {
      EXECUTIONS_MODE: 'queue',
      QUEUE_BULL_REDIS_HOST: redis.host,
      QUEUE_BULL_REDIS_PORT: String(redis.port),
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: postgres.host,
      DB_POSTGRESDB_PORT: String(postgres.port),
      DB_POSTGRESDB_DATABASE: postgres.database,
      DB_POSTGRESDB_USER: postgres.user,
      DB_POSTGRESDB_PASSWORD: postgres.password,
      DB_POSTGRESDB_POOL_SIZE: '4',
    };
  }

  /** Runs one n8n CLI command to its end. */
  cli(args: string[], timeoutMs = 180_000): Promise<CliResult> {
    return runChild(nodeBinary(), [this.runtime.bin, ...args], { env: this.env() }, timeoutMs);
  }

  private async cliOrThrow(args: string[]): Promise<CliResult> {
    const result = await this.cli(args);
    if (result.code !== 0) {
      throw new Error(`n8n ${args[0]} failed (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-3000)}`);
    }
    return result;
  }

  /**
   * Installs the packed n8n package the way a community package lives on a real instance:
   * `<user folder>/.n8n/nodes/node_modules/<name>`, node types then named `<package>.<node>`.
   */
  async installCommunityPackage(tarball: string): Promise<void> {
    const nodesDir = join(this.userFolder, '.n8n', 'nodes');
    mkdirSync(nodesDir, { recursive: true });
    writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
    await new Promise<void>((resolve, reject) => {
      // --omit=peer: n8n-workflow is the host's own; the package has no other runtime dependency.
      const child = spawn('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
        cwd: nodesDir,
        env: node24Env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm install ${tarball} failed (exit ${code}):\n${output}`))));
    });
  }

  /** Imports the Short Link credential; n8n encrypts it with this instance's key on import. */
  async importCredential(credential: CredentialInput): Promise<void> {
    await this.importCredentials([credential]);
  }

  /** Imports several Short Link credentials with one CLI run. */
  async importCredentials(credentials: CredentialInput[]): Promise<void> {
    await this.importCredentialEntries(credentials.map(({ id, name, apiKey, baseUrl }) => ({ id, name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl } })));
  }

  /** Imports credentials of any type (e.g. httpBearerAuth for n8n's MCP Client) with one CLI run. */
  async importCredentialEntries(entries: Array<{ id: string; name: string; type: string; data: Record<string, string> }>): Promise<void> {
    const file = join(this.userFolder, `credentials-${randomBytes(6).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify(entries), { mode: 0o600 });
    try {
      await this.cliOrThrow(['import:credentials', `--input=${file}`]);
    } finally {
      // The plain key must not stay on disk.
      rmSync(file, { force: true });
    }
  }

  /** Imports workflows; each Short Link node is pointed at the given credential. Ids must be ≤ 16 characters. */
  async importWorkflows(workflows: WorkflowJson[], credential: { id: string; name: string }): Promise<void> {
    const dir = join(this.userFolder, 'workflows-to-import');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const workflow of workflows) {
      if (!workflow.id || workflow.id.length > 16) throw new Error(`Workflow "${workflow.name}" needs an id of at most 16 characters.`);
      writeFileSync(join(dir, `${workflow.id}.json`), JSON.stringify(withCredential(workflow, credential), null, 2));
    }
    await this.cliOrThrow(['import:workflow', '--separate', `--input=${dir}`]);
  }

  /**
   * `n8n execute --id=<id> --rawOutput`: the run's data (parsed), the exit code and the raw text.
   * On 2.x stdout carries log lines before the JSON.
   */
  async execute(workflowId: string): Promise<CliResult & { run: ExecutionRun | undefined }> {
    const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], 600_000);
    return { ...result, run: parseRunOutput(result.stdout) };
  }

  /** Marks a workflow active so that `n8n start` activates it (its trigger then polls for real). */
  async activate(workflowId: string): Promise<void> {
    if (n8nMajor(this.runtime) >= 2) await this.cliOrThrow(['publish:workflow', `--id=${workflowId}`]);
    else await this.cliOrThrow(['update:workflow', `--id=${workflowId}`, '--active=true']);
  }

  /** Starts the editor and waits until it answers. */
  async start(timeoutMs = 120_000): Promise<void> {
    await this.launch(['start'], {}, () => this.healthy(), timeoutMs);
  }

  /**
   * Queue mode: starts this instance as a worker (`n8n worker`) that runs up to `concurrency` executions at
   * once, and waits until its health server on `port` says it is ready (database and Redis connected).
   */
  async startWorker(options: { concurrency: number; timeoutMs?: number }): Promise<void> {
    if (!this.queue) throw new Error('A worker needs queue mode: give the instance its `queue` settings.');
    const health = { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(this.port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' };
    await this.launch(['worker', `--concurrency=${options.concurrency}`], health, () => this.answers('/healthz/readiness'), options.timeoutMs ?? 120_000);
  }

  /** Runs `n8n <args>` as this instance's long-running process and waits until `ready()`. */
  private async launch(args: string[], extraEnv: NodeJS.ProcessEnv, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    if (this.server) throw new Error('This n8n instance is already running.');
    const child = spawn(nodeBinary(), [this.runtime.bin, ...args], { env: { ...this.env(), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.server = child;
    this.serverOutput = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.serverOutput = (this.serverOutput + text).slice(-200_000);
      for (const line of text.split('\n')) if (line.trim() !== '') this.log(`${args[0] === 'start' ? '[n8n]' : `[n8n ${args[0]}]`} ${line}`);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`n8n ${args[0]} exited early (code ${code}):\n${this.serverOutput.slice(-3000)}`))),
    );
    exited.catch(() => undefined);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const isReady = await Promise.race([ready(), exited]);
      if (isReady) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await this.stop();
    throw new Error(`n8n ${args[0]} was not ready on port ${this.port} within ${timeoutMs / 1000} s:\n${this.serverOutput.slice(-3000)}`);
  }

  /** Everything `n8n start` (or `n8n worker`) printed so far (for diagnostics, and which executions a worker ran). */
  get output(): string {
    return this.serverOutput;
  }

  /** Ready means the REST API answers too: on 1.x /healthz answers before the REST routes exist. */
  private async healthy(): Promise<boolean> {
    return (await this.answers('/healthz/readiness')) && (await this.answers('/rest/settings'));
  }

  private async answers(path: string): Promise<boolean> {
    try {
      return (await fetch(`${this.editorUrl}${path}`)).ok;
    } catch {
      return false;
    }
  }

  /** Stops `n8n start` or `n8n worker` (SIGTERM, then SIGKILL when it lingers). */
  async stop(): Promise<void> {
    const child = this.server;
    this.server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** Creates the owner account of a fresh instance (the editor's first screen, done for the user). */
  async setupOwner(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<void> {
    const response = await fetch(`${this.editorUrl}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(owner),
    });
    if (!response.ok) throw new Error(`Owner setup answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }

  /** Creates the owner on the first start; on later starts the owner exists and must still be able to log in. */
  async setupOwnerOnce(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<'created' | 'existing'> {
    try {
      await this.setupOwner(owner);
      return 'created';
    } catch (setupError) {
      try {
        await this.login(owner.email, owner.password);
      } catch {
        throw setupError;
      }
      return 'existing';
    }
  }

  /** Called once when `n8n start` exits, whoever stopped it. */
  onExit(listener: (code: number | null) => void): void {
    this.server?.once('exit', listener);
  }

  /**
   * Runs a workflow the way the editor's "Execute workflow" button does (POST /rest/workflows/:id/run,
   * starting from the named trigger) and waits for the execution to end; returns its status.
   */
  async runInEditor(cookie: string, workflowId: string, triggerName: string, timeoutMs = 120_000): Promise<{ executionId: string; status: string }> {
    const executionId = await this.startInEditor(cookie, workflowId, triggerName);
    return { executionId, status: await this.waitForExecution(cookie, executionId, timeoutMs) };
  }

  /** Starts a workflow as the editor's "Execute workflow" button does; returns the execution's id at once. */
  async startInEditor(cookie: string, workflowId: string, triggerName: string): Promise<string> {
    const headers = { cookie, 'Content-Type': 'application/json' };
    const workflow = (await (await fetch(`${this.editorUrl}/rest/workflows/${workflowId}`, { headers })).json()) as { data: unknown };
    const response = await fetch(`${this.editorUrl}/rest/workflows/${workflowId}/run`, {
      method: 'POST',
      headers,
      // 2.x reads triggerToStartFrom; 1.x also wants the workflow itself.
      body: JSON.stringify({ workflowData: workflow.data, triggerToStartFrom: { name: triggerName } }),
    });
    const started = (await response.json()) as { data?: { executionId?: string } };
    const executionId = started.data?.executionId;
    if (!response.ok || !executionId) throw new Error(`The editor did not start ${workflowId}: ${response.status} ${JSON.stringify(started).slice(0, 500)}`);
    return executionId;
  }

  /** Waits until the execution is no longer new, running or waiting; returns its status. */
  async waitForExecution(cookie: string, executionId: string, timeoutMs = 120_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const execution = (await (await fetch(`${this.editorUrl}/rest/executions/${executionId}`, { headers: { cookie } })).json()) as { data?: { status?: string } };
      const status = execution.data?.status ?? 'unknown';
      if (!['new', 'running', 'waiting', 'unknown'].includes(status)) return status;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`Execution ${executionId} did not end within ${timeoutMs / 1000} s.`);
  }

  /** The editor's Stop button for a running execution. */
  async stopExecution(cookie: string, executionId: string): Promise<void> {
    const response = await fetch(`${this.editorUrl}/rest/executions/${executionId}/stop`, { method: 'POST', headers: { cookie, 'Content-Type': 'application/json' }, body: '{}' });
    if (!response.ok) throw new Error(`Stopping execution ${executionId} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }

  /**
   * The credential dialog's test (POST /rest/credentials/test) of the saved credential `id` with the values
   * typed into the dialog (`data`, which n8n puts over the saved ones); n8n's answer.
   */
  async testCredential(cookie: string, id: string, data: { apiKey: string; baseUrl: string }): Promise<{ status: string; message: string }> {
    const response = await fetch(`${this.editorUrl}/rest/credentials/test`, {
      method: 'POST',
      headers: { cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ credentials: { id, name: 'Short Link (test)', type: CREDENTIAL_TYPE, data } }),
    });
    const body = (await response.json()) as { data?: { status: string; message: string } };
    if (!response.ok || !body.data) throw new Error(`The credential test answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
    return body.data;
  }

  /** Logs in and returns the session cookie for further REST calls. */
  async login(email: string, password: string): Promise<string> {
    const response = await fetch(`${this.editorUrl}/rest/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ emailOrLdapLoginId: email, email, password }),
    });
    if (!response.ok) throw new Error(`Login answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
    if (!cookie) throw new Error('Login set no n8n-auth cookie.');
    return cookie.split(';')[0]!;
  }

  /** Creates an n8n API key of the logged-in user with `scopes` (Settings → n8n API), for the public API. */
  async createApiKey(cookie: string, label: string, scopes: string[]): Promise<string> {
    const response = await fetch(`${this.editorUrl}/rest/api-keys`, {
      method: 'POST',
      headers: { cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label, scopes, expiresAt: null }),
    });
    const body = (await response.json()) as { data?: { rawApiKey?: string } };
    if (!response.ok || !body.data?.rawApiKey) throw new Error(`Creating an n8n API key answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data.rawApiKey;
  }

  /** A call of n8n's public API (`/api/v1`, header X-N8N-API-KEY); the parsed answer. */
  async publicApi<T>(apiKey: string, method: string, path: string): Promise<T> {
    const response = await fetch(`${this.editorUrl}/api/v1${path}`, { method, headers: { 'X-N8N-API-KEY': apiKey, Accept: 'application/json' } });
    const text = await response.text();
    if (!response.ok) throw new Error(`n8n's public API answered ${method} ${path} with ${response.status}: ${text.slice(0, 300)}`);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }

  /** The production URL of a published workflow's webhook. */
  webhookUrl(path: string): string {
    return `${this.editorUrl}/webhook/${path}`;
  }
}

/** What `execute --rawOutput` prints: the run, with every node's output under resultData.runData. */
export interface ExecutionRun {
  data: {
    resultData: {
      runData: Record<string, Array<{ data?: { main?: Array<ExecutionItem[] | null> }; error?: { message?: string; description?: string } }>>;
      error?: { message?: string; description?: string; node?: { name?: string } };
      lastNodeExecuted?: string;
    };
  };
  status?: string;
  finished?: boolean;
}

/**
 * One output item. A failed item that a node kept (Continue On Fail) with `.error` beside it has its json
 * replaced by n8n with `{ error: message }`; the Short Link node puts its explanation into the json instead.
 */
export interface ExecutionItem {
  json: Record<string, unknown>;
  error?: { message?: string; description?: string; name?: string };
}

/**
 * The run in n8n's stdout: JSON printed with two-space indentation, so it starts with a line `{` and ends
 * with the next line `}`. Log lines may come before it (2.x) and after it (a task runner registering late).
 */
export function parseRunOutput(stdout: string): ExecutionRun | undefined {
  const lines = stdout.split('\n').map((line) => line.replace(/\r$/, ''));
  for (let start = 0; start < lines.length; start++) {
    if (lines[start] !== '{') continue;
    for (let end = start + 1; end < lines.length; end++) {
      if (lines[end] !== '}') continue;
      try {
        return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionRun;
      } catch {
        break; // not the run's JSON: look for the next opening line
      }
    }
  }
  return undefined;
}

/** The items one node put out in its first run on a main output (0; 1 is the error output of "On Error: Continue (using error output)"). */
export function nodeItems(run: ExecutionRun | undefined, nodeName: string, output = 0): ExecutionItem[] {
  return run?.data.resultData.runData[nodeName]?.[0]?.data?.main?.[output] ?? [];
}

/** The JSON of those items. */
export function nodeOutput(run: ExecutionRun | undefined, nodeName: string, output = 0): Array<Record<string, unknown>> {
  return nodeItems(run, nodeName, output).map((item) => item.json);
}

/** A copy of the workflow whose Short Link nodes use the given credential. */
export function withCredential(workflow: WorkflowJson, credential: { id: string; name: string }): WorkflowJson {
  const copy = structuredClone(workflow);
  for (const node of copy.nodes) {
    if (node.credentials?.[CREDENTIAL_TYPE]) node.credentials[CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
  }
  return copy;
}
