/**
 * What the single-scenario n8n files share: an n8n of their own (the cached runtime, a new user folder, the
 * packed tarball installed as a community package, free ports) and a recorder on loopback that the
 * workflow's HTTP Request node posts each execution's result to, so a test sees exactly what n8n ran.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { N8nInstance, type N8nInstanceOptions } from '../../../scripts/n8n/instance';
import { ensureN8nRuntime } from '../../../scripts/n8n/runtime';
import { freePort } from './ports';

export interface OwnN8n {
  n8n: N8nInstance;
  /** Stops n8n and removes its user folder. */
  close(): Promise<void>;
}

/** Options passed on to N8nInstance beside the runtime, folder and ports (e.g. a time zone). */
type ExtraOptions = Omit<N8nInstanceOptions, 'runtime' | 'userFolder' | 'port' | 'brokerPort'>;

export async function startOwnN8n(folderPrefix: string, options: ExtraOptions = {}): Promise<OwnN8n> {
  const runtime = await ensureN8nRuntime();
  const userFolder = mkdtempSync(join(tmpdir(), `shortlink-e2e-${folderPrefix}-`));
  const n8n = new N8nInstance({ ...options, runtime, userFolder, port: await freePort(), brokerPort: await freePort() });
  const tarball = process.env.SHORTLINK_E2E_TARBALL;
  if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');
  await n8n.installCommunityPackage(tarball);
  return {
    n8n,
    async close() {
      await n8n.stop();
      rmSync(userFolder, { recursive: true, force: true });
    },
  };
}

export interface Recorder<T> {
  /** The URL the workflow posts to. */
  url: string;
  /** Every JSON body received, in order. */
  received: T[];
  close(): Promise<void>;
}

export async function startRecorder<T>(): Promise<Recorder<T>> {
  const received: T[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(body) as T);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deliveries`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
