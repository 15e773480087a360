/**
 * `@shortlink/core`: everything in portable, plus the standalone defaults (axios transport, timer sleep)
 * and a createClient whose transport and sleep default to them.
 */
export * from './portable';
export { createClient } from './standalone/create-client';
export type { StandaloneClientOptions } from './standalone/create-client';
export { createAxiosTransport, TransportFailure } from './standalone/axios-transport';
export type { AxiosTransportOptions } from './standalone/axios-transport';
export { timerSleep } from './standalone/timer-sleep';
