/** Removes the packed artifacts and the standalone tree of this run (the global setup made them). */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  for (const folder of [process.env.SHORTLINK_E2E_ARTIFACTS, process.env.SHORTLINK_E2E_STANDALONE_DIR]) {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}
