/** Optional persistence: the whole state as one JSON file, replaced atomically after each change. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxState } from './types';

export function loadState(dataFile: string): SandboxState | undefined {
  if (!existsSync(dataFile)) return undefined;
  const state = JSON.parse(readFileSync(dataFile, 'utf8')) as SandboxState;
  if (state.version !== 1 || !Array.isArray(state.links) || !Array.isArray(state.accounts)) {
    throw new Error(`${dataFile} is not a sandbox data file (version 1)`);
  }
  return state;
}

/** Write to a temporary file beside the target, then rename: a crash never leaves half a file. */
export function saveState(dataFile: string, state: SandboxState): void {
  mkdirSync(dirname(dataFile), { recursive: true });
  const temporary = `${dataFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
  renameSync(temporary, dataFile);
}
