/**
 * The days a report covers. A day is the service's calendar day, which is UTC (the sandbox counts clicks
 * per UTC day; the spec does not say otherwise): "yesterday" closes at 00:00 UTC, whatever the user's zone.
 */
import { InputError } from '../../errors';
import { checkDay, dayNumber, dayOfNumber, lastClosedDay } from '../../basics/calendar-days';

export interface DayRange {
  /** First day, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last day, YYYY-MM-DD (inclusive). */
  to: string;
}

/** Days a report may span: a year and a day (a leap year's 366 days plus the day after). */
export const MAX_REPORT_DAYS = 366;
export const DEFAULT_REPORT_DAYS = 7;

/** The last `count` complete days before today (UTC): the report's default range. */
export function lastCompleteDays(now: number, count = DEFAULT_REPORT_DAYS): DayRange {
  const to = lastClosedDay(now);
  return { from: dayOfNumber(dayNumber(to) - count + 1), to };
}

/** Every day of the range, oldest first. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let n = dayNumber(range.from); n <= dayNumber(range.to); n++) days.push(dayOfNumber(n));
  return days;
}

export interface RangeLabels {
  from: string;
  to: string;
}

/**
 * The range as typed (either end may be empty): an empty "from" is 6 days before "to", an empty "to" is
 * yesterday (or from + 6 days when that is earlier). Refuses reversed ranges and ranges over MAX_REPORT_DAYS.
 */
export function readDayRange(from: string | undefined, to: string | undefined, now: number, labels: RangeLabels = { from: 'From', to: 'To' }): DayRange {
  const first = from === undefined ? undefined : checkDay(from, `"${labels.from}"`);
  const last = to === undefined ? undefined : checkDay(to, `"${labels.to}"`);
  let range: DayRange;
  if (first === undefined && last === undefined) range = lastCompleteDays(now);
  else if (first === undefined) range = { from: dayOfNumber(dayNumber(last!) - DEFAULT_REPORT_DAYS + 1), to: last! };
  else if (last === undefined) {
    const week = dayOfNumber(dayNumber(first) + DEFAULT_REPORT_DAYS - 1);
    const yesterday = lastClosedDay(now);
    range = { from: first, to: week < yesterday ? week : yesterday < first ? first : yesterday };
  } else range = { from: first, to: last };
  if (range.from > range.to) {
    throw new InputError('from', `"${labels.from}" (${range.from}) must be on or before "${labels.to}" (${range.to}).`);
  }
  const span = dayNumber(range.to) - dayNumber(range.from) + 1;
  if (span > MAX_REPORT_DAYS) {
    throw new InputError('from', `"${labels.from}" to "${labels.to}" spans ${span} days; a report covers at most ${MAX_REPORT_DAYS} days. Choose a shorter range.`);
  }
  return range;
}
