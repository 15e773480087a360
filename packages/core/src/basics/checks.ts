/** Checks of numbers a caller passes in options, named by the option (no room of their own). */
import { InputError } from '../errors';

export function checkNonNegative(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InputError(field, `${field} must be a number of at least 0.`);
  }
  return value;
}

export function checkPositiveNumber(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InputError(field, `${field} must be a number greater than 0.`);
  }
  return value;
}
