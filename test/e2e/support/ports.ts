export { freePort } from '../../../scripts/n8n/free-port';

/** Polls `check` every `everyMs` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
