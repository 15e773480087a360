/**
 * Which n8n the playground (`npm start`) runs. n8n 3.0 runs self-hosted from Docker only (no runnable `n8n`
 * package on npm), so `npm start -- --docker` runs the `n8nio/n8n` image when a Docker daemon answers: the
 * package installed into a mounted community-nodes folder, `N8N_UNVERIFIED_PACKAGES_ENABLED=true` (3.0 refuses
 * unverified packages otherwise), the host's network so that the image reaches the sandbox on loopback.
 * Without a daemon the npm route stays: n8n 2.x is still on npm, the e2e suite tests exactly it, and it needs
 * nothing but Node. The machines this repository is built and tested on have the docker client but no daemon,
 * so the Docker route itself is not run by any test here; chooseRoute and dockerRunArgs are
 * (scripts/n8n/playground-route.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Route = { route: 'npm' | 'docker' | 'refused'; explanation: string };

export function chooseRoute({ dockerRequested, daemonAnswers }: { dockerRequested: boolean; daemonAnswers: boolean }): Route {
  if (dockerRequested && daemonAnswers) {
    return { route: 'docker', explanation: 'Route: Docker (--docker, and a Docker daemon answers): the n8nio/n8n image with the package mounted.' };
  }
  if (dockerRequested) {
    return {
      route: 'refused',
      explanation:
        'Route: --docker asks for the n8nio/n8n image, but no Docker daemon answers (`docker info` failed). Start Docker, or drop --docker: ' +
        'the npm route runs n8n 2.x, which is still published on npm and is what the tests run.',
    };
  }
  return {
    route: 'npm',
    explanation: 'Route: npm (n8n 2.x from npm, cached in ~/.cache/shortlink-n8n; n8n 3.0 runs from Docker only: `npm start -- --docker` with a Docker daemon).',
  };
}

/** Whether a Docker daemon answers (the client alone is not enough). */
export function dockerDaemonAnswers(env: NodeJS.ProcessEnv = process.env): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 15_000, env });
  return result.status === 0 && result.stdout.trim() !== '';
}

export interface DockerSettings {
  image: string;
  containerName: string;
  editorPort: number;
  /** Host folder mounted as the image's n8n user folder (/home/node/.n8n); its nodes/ holds the package. */
  userFolder: string;
  encryptionKey: string;
}

/** The `docker run` arguments of the playground's n8n. */
export function dockerRunArgs(settings: DockerSettings): string[] {
  return [
    'run', '--detach', '--rm',
    '--name', settings.containerName,
    // The sandbox listens on the host's loopback.
    '--network', 'host',
    '--env', `N8N_PORT=${settings.editorPort}`,
    '--env', 'N8N_UNVERIFIED_PACKAGES_ENABLED=true',
    '--env', `N8N_ENCRYPTION_KEY=${settings.encryptionKey}`,
    '--env', 'N8N_DIAGNOSTICS_ENABLED=false',
    '--volume', `${settings.userFolder}:/home/node/.n8n`,
    settings.image,
  ];
}

/**
 * Installs the packed package into `<userFolder>/nodes` (where n8n loads community packages from), then starts
 * the container; returns how to stop it. The owner, the credential and the examples are left to the editor
 * (the printed key and base URL; Workflows → Import from File).
 */
export function startDockerN8n(settings: DockerSettings, tarball: string, say: (line: string) => void): () => Promise<void> {
  const nodes = join(settings.userFolder, 'nodes');
  mkdirSync(nodes, { recursive: true });
  // The image runs n8n as the user `node`: the mounted folder must be writable for it.
  chmodSync(settings.userFolder, 0o777);
  const install = spawnSync('npm', ['install', '--prefix', nodes, '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`Installing the package for the Docker route failed: ${install.stderr.slice(-2000)}`);
  const run = spawnSync('docker', dockerRunArgs(settings), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`docker run failed: ${run.stderr.trim()}`);
  say(`n8n (${settings.image}) runs in the container ${settings.containerName} on http://localhost:${settings.editorPort}`);
  return async () => {
    spawnSync('docker', ['stop', settings.containerName], { encoding: 'utf8' });
  };
}
