/** createClient for scripts, tests and benchmarks: transport and sleep default to axios and timers. */
import { createClient as createPortableClient, ClientOptions, ShortLinkClient } from '../client';
import { InputError } from '../errors';
import { createAxiosTransport } from './axios-transport';
import { timerSleep } from './timer-sleep';

export type StandaloneClientOptions = Omit<ClientOptions, 'transport' | 'sleep'> & {
  transport?: ClientOptions['transport'];
  sleep?: ClientOptions['sleep'];
  /** Timeout of each request of the default transport; default 30 s. */
  timeoutMs?: number;
};

export function createClient(options: StandaloneClientOptions): ShortLinkClient {
  let transport = options.transport;
  if (!transport) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new InputError('apiKey', 'apiKey is required: create one in the dashboard, section "API" (it is shown once).');
    }
    transport = createAxiosTransport(options.timeoutMs === undefined ? { apiKey: options.apiKey } : { apiKey: options.apiKey, timeoutMs: options.timeoutMs });
  }
  return createPortableClient({ ...options, transport, sleep: options.sleep ?? timerSleep });
}
