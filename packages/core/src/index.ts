/**
 * `@shortlink/core`: the client face (portable.ts) with the standalone defaults — an axios transport and a
 * timer sleep — and a createClient whose transport and sleep default to them, for scripts, tests, the
 * benchmarks and Node programs.
 */
export * from './portable';
export { createClient } from './standalone/create-client';
export type { StandaloneClientOptions } from './standalone/create-client';
export { createAxiosTransport } from './standalone/axios-transport';
export { timerSleep } from './standalone/timer-sleep';
