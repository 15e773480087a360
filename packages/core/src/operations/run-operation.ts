/** The one door hosts use to run an operation or poll a trigger: values in, records out, errors in the form's words. */
import type { ShortLinkClient } from '../client';
import { FormReader, type FormValues } from '../forms/form-values';
import type { Operation, OperationContext, OperationResult } from './operation';
import type { Trigger, TriggerContext, TriggerPoll } from './trigger';

export async function runOperation(
  operation: Operation,
  client: ShortLinkClient,
  values: FormValues,
  context: OperationContext = {},
): Promise<OperationResult> {
  return operation.run(scoped(client, context), new FormReader(values, operation.fields, context.caller), context);
}

/**
 * The client as this run may use it: every call ends by the run's deadline and on its cancel signal, so
 * that nothing is sent after the host said stop (docs/guarantees.md, "Many callers").
 */
function scoped(client: ShortLinkClient, context: OperationContext | TriggerContext): ShortLinkClient {
  const { signal, deadlineAt } = context as OperationContext;
  if (signal === undefined && deadlineAt === undefined) return client;
  const now = (context.now ?? Date.now)();
  return client.within({
    ...(signal !== undefined ? { signal } : {}),
    ...(deadlineAt !== undefined ? { deadlineAt, limitMs: Math.max(0, deadlineAt - now) } : {}),
  });
}

/** One poll of a trigger with the state the host kept (undefined on the first poll). */
export async function runTrigger(
  trigger: Trigger,
  client: ShortLinkClient,
  values: FormValues,
  state: unknown,
  context: TriggerContext = {},
): Promise<TriggerPoll> {
  return trigger.poll(scoped(client, context), new FormReader(values, trigger.fields), state, context);
}
