/** The standalone sleep: a plain timer (hosts without timers pass their own). */
export function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
