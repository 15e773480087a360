/** Runs core operations against a fresh sandbox over real HTTP; counts the requests each run sent. */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { expectDeclaredOutput } from './declared-output';
import { createClient, InputError, runOperation, runTrigger, type FormValues, type Operation, type OperationContext, type OperationResult, type ShortLinkClient, type Trigger, type TriggerPoll } from '@shortlink/core';

export interface OperationBench {
  sandbox: Sandbox;
  client: ShortLinkClient;
  /** Runs the operation with a fresh client (no index carried over between cases). */
  run(operation: Operation, values: FormValues, context?: OperationContext): Promise<OperationResult>;
  poll(trigger: Trigger, values: FormValues, state: unknown): Promise<TriggerPoll>;
  /** The error the run throws, after checking that no request reached the sandbox. */
  refused(operation: Operation, values: FormValues, context?: OperationContext): Promise<InputError>;
}

export function operationBench(): OperationBench {
  const bench = {} as OperationBench;
  beforeAll(async () => {
    bench.sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
    bench.client = createClient({ baseUrl: bench.sandbox.baseUrl, apiKey: bench.sandbox.apiKey });
  });
  afterAll(async () => {
    await bench.sandbox?.close();
  });
  const freshClient = () => createClient({ baseUrl: bench.sandbox.baseUrl, apiKey: bench.sandbox.apiKey });
  // Every result is checked against what its operation or trigger declares (operations/output.ts).
  bench.run = async (operation, values, context = {}) => {
    const result = await runOperation(operation, freshClient(), values, context);
    expectDeclaredOutput(operation, values, result);
    return result;
  };
  bench.poll = async (trigger, values, state) => {
    const poll = await runTrigger(trigger, freshClient(), values, state, {});
    expectDeclaredOutput({ key: trigger.key, fields: trigger.fields, output: { fields: trigger.output } }, values, poll);
    return poll;
  };
  bench.refused = async (operation, values, context = {}) => {
    const before = bench.sandbox.requests.length;
    const error = await runOperation(operation, freshClient(), values, context).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect(bench.sandbox.requests.length).toBe(before);
    return error as InputError;
  };
  return bench;
}

export const DEMO_DOMAIN = 'go.example.org';
