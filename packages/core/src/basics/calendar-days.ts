/**
 * Calendar days, once: a day is `YYYY-MM-DD` in UTC, the service's day (it counts clicks per UTC day; the
 * spec says no other). Statistics per day, reports, Clicks Per Day and the triggers' "created in the last N
 * days" all count days here.
 */
import { InputError } from '../errors';

/** One day in ms. */
export const DAY_MS = 86_400_000;

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|[Tt ])/;

/** A calendar day: `YYYY-MM-DD`, or the day part of a date-time as written (its time and zone are ignored). */
export function checkDay(value: unknown, field: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const match = DAY.exec(text);
  if (match) {
    const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return text.slice(0, 10);
  }
  const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : String(value);
  throw new InputError(field, `${field} must be a day such as 2026-03-01; got ${shown}.`);
}

/** Days since 1970-01-01 of a YYYY-MM-DD day. */
export function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/** The day of a day number. */
export function dayOfNumber(number: number): string {
  return new Date(number * DAY_MS).toISOString().slice(0, 10);
}

/** The service's day (UTC) at epoch ms `at`. */
export function serviceDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The last day that has closed at `now`: yesterday in UTC. */
export function lastClosedDay(now: number): string {
  return dayOfNumber(dayNumber(serviceDay(now)) - 1);
}

/** Epoch ms `days` whole days before `at` (the start of "created in the last N days"). */
export function daysBefore(at: number, days: number): number {
  return at - days * DAY_MS;
}
