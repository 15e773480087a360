/** Removes the packed artifacts of this run (the global setup made the folder). */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const artifacts = process.env.SHORTLINK_E2E_ARTIFACTS;
  if (artifacts) rmSync(artifacts, { recursive: true, force: true });
}
