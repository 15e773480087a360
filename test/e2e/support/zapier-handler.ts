/**
 * The handler of a built Zapier zip in its own Node process (scripts/zapier/handler-driver.cjs), as Zapier's
 * runtime calls it: one request at a time, z.cache kept between them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { nodeBinary, node24Env, repoRoot } from '../../../scripts/n8n/runtime';

export interface HandlerAnswer {
  id: number;
  ok: boolean;
  result?: { results: unknown };
  error?: { name: string; message: string };
  logs: string[];
}

export class ZapierHandler {
  private driver: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, (answer: HandlerAnswer) => void>();
  private nextId = 1;
  /** Every log line and error message the handler produced. */
  readonly printed: string[] = [];

  /** Starts the driver on `zip` (Node 24 unless `node` names another binary) and waits until it is ready. */
  async start(zip: string, node = nodeBinary()): Promise<void> {
    const driver = spawn(node, [join(repoRoot, 'scripts', 'zapier', 'handler-driver.cjs'), zip], { env: node24Env() });
    this.driver = driver;
    let stderr = '';
    driver.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-5000)));
    await new Promise<void>((resolve, reject) => {
      driver.once('exit', (code) => reject(new Error(`The Zapier handler driver exited (code ${code}):\n${stderr}`)));
      createInterface({ input: driver.stdout }).on('line', (line) => {
        const message = JSON.parse(line) as HandlerAnswer & { ready?: boolean };
        if (message.ready) resolve();
        else this.pending.get(message.id)?.(message);
      });
    });
  }

  /** One invocation: the handler's answer, whether it succeeded or not. */
  call(method: string, bundle: Record<string, unknown>): Promise<HandlerAnswer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (answer) => {
        this.printed.push(...answer.logs, answer.error?.message ?? '');
        resolve(answer);
      });
      this.driver!.stdin.write(`${JSON.stringify({ id, method, bundle })}\n`);
    });
  }

  async stop(): Promise<void> {
    const driver = this.driver;
    if (!driver || driver.exitCode !== null) return;
    const exited = new Promise((resolve) => driver.once('exit', resolve));
    driver.stdin.end();
    await exited;
  }
}
