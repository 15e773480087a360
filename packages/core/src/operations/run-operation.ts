/** The one door hosts use to run an operation: values in, records out, errors in the form's words. */
import type { ShortLinkClient } from '../client';
import { FormReader, type FormValues } from '../forms/form-values';
import type { Operation, OperationContext, OperationResult } from './operation';

export async function runOperation(
  operation: Operation,
  client: ShortLinkClient,
  values: FormValues,
  context: OperationContext = {},
): Promise<OperationResult> {
  return operation.run(client, new FormReader(values, operation.fields), context);
}
