/** createClient for scripts, tests and benchmarks: transport and sleep default to axios and timers. */
import { createClient as createPortableClient, ClientOptions, ShortLinkClient } from '../client';
import { InputError } from '../errors';
import { createAxiosTransport } from './axios-transport';
import { timerSleep } from './timer-sleep';

export type StandaloneClientOptions = Omit<ClientOptions, 'transport' | 'sleep'> & {
  transport?: ClientOptions['transport'];
  sleep?: ClientOptions['sleep'];
};

export function createClient(options: StandaloneClientOptions): ShortLinkClient {
  let transport = options.transport;
  if (!transport) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new InputError('apiKey', 'apiKey is required: create one in the dashboard, section "API" (it is shown once).');
    }
    // The idle-socket timeout equals the request limit; the core's signal bounds the whole request.
    transport = createAxiosTransport(
      options.requestTimeoutMs === undefined ? { apiKey: options.apiKey } : { apiKey: options.apiKey, timeoutMs: options.requestTimeoutMs },
    );
  }
  return createPortableClient({ ...options, transport, sleep: options.sleep ?? timerSleep });
}
