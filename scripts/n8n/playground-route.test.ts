/** The playground's choice between the npm route (n8n 2.x) and the Docker route (the n8nio/n8n image). */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseRoute, dockerDaemonAnswers, dockerRunArgs } from './playground-route';

describe('chooseRoute', () => {
  it.each([
    [false, false, 'npm'],
    [false, true, 'npm'],
    [true, true, 'docker'],
    [true, false, 'refused'],
  ] as const)('--docker %s, daemon answers %s: %s', (dockerRequested, daemonAnswers, route) => {
    expect(chooseRoute({ dockerRequested, daemonAnswers }).route).toBe(route);
  });

  it('says why the npm route stays and what a refused --docker lacks', () => {
    expect(chooseRoute({ dockerRequested: false, daemonAnswers: false }).explanation).toContain('n8n 3.0 runs from Docker only');
    expect(chooseRoute({ dockerRequested: true, daemonAnswers: false }).explanation).toContain('no Docker daemon answers');
  });
});

describe('dockerDaemonAnswers', () => {
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'fake-docker-'));
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  /** An environment whose `docker` behaves as given. */
  function fakeDocker(script: string): NodeJS.ProcessEnv {
    writeFileSync(join(bin, 'docker'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, 'docker'), 0o755);
    return { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  }

  it('is false when the client cannot reach a daemon (the client alone is installed)', () => {
    expect(dockerDaemonAnswers(fakeDocker('echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock" >&2; exit 1'))).toBe(false);
  });

  it('is true when the daemon tells its version', () => {
    expect(dockerDaemonAnswers(fakeDocker('echo 27.3.1'))).toBe(true);
  });
});

it('dockerRunArgs: the image on the host network, unverified packages allowed, the user folder mounted', () => {
  const args = dockerRunArgs({ image: 'n8nio/n8n:latest', containerName: 'pg', editorPort: 5678, userFolder: '/state/docker-n8n', encryptionKey: 'k' });
  expect(args.slice(0, 3)).toEqual(['run', '--detach', '--rm']);
  expect(args).toEqual(expect.arrayContaining(['--network', 'host', 'N8N_UNVERIFIED_PACKAGES_ENABLED=true', 'N8N_PORT=5678', '/state/docker-n8n:/home/node/.n8n']));
  expect(args[args.length - 1]).toBe('n8nio/n8n:latest');
});
