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
  return operation.run(client, new FormReader(values, operation.fields, context.caller), context);
}

/** One poll of a trigger with the state the host kept (undefined on the first poll). */
export async function runTrigger(
  trigger: Trigger,
  client: ShortLinkClient,
  values: FormValues,
  state: unknown,
  context: TriggerContext = {},
): Promise<TriggerPoll> {
  return trigger.poll(client, new FormReader(values, trigger.fields), state, context);
}
