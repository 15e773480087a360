/** A transport that answers from a script, recording every request. */
import type { Transport, TransportRequest, TransportResponse } from '../src/http/transport';

export type Step = TransportResponse | { fail: string };

export function scriptedTransport(steps: Step[]): Transport & { requests: TransportRequest[] } {
  const requests: TransportRequest[] = [];
  const transport = (async (request: TransportRequest) => {
    requests.push(request);
    const step = steps.shift();
    if (!step) throw new Error(`unexpected extra request ${request.method} ${request.path}`);
    if ('fail' in step) throw Object.assign(new Error(`socket ${step.fail}`), { code: step.fail });
    return step;
  }) as Transport & { requests: TransportRequest[] };
  transport.requests = requests;
  return transport;
}

export const ok = (body: unknown = { id: '1' }, headers: Record<string, string> = {}): TransportResponse => ({ status: 200, headers, body });
export const status = (code: number, headers: Record<string, string> = {}, body: unknown = { title: 'Failed', status: code }): TransportResponse => ({
  status: code,
  headers,
  body,
});
