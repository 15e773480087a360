/**
 * Clicks per day for charts and sheets. The service lists only days with clicks (openapi LinkStats
 * clicksByDay: "days with at least one click, ascending"); a chart wants every day of a range, with 0 where
 * nobody clicked. Days are the service's calendar days (UTC in the sandbox; the spec does not say).
 */
import { checkDay, dayNumber, dayOfNumber } from '../../basics/calendar-days';
import { InputError } from '../../errors';

export interface DayClicks {
  date: string;
  clicks: number;
}

export interface DailyClicksOptions {
  /** First day (YYYY-MM-DD) of the output; default: the first day with clicks. */
  from?: string;
  /** Last day (YYYY-MM-DD); default: the last day with clicks, or today when days without clicks are included. */
  to?: string;
  /** Adds { date, clicks: 0 } for every day of the range without clicks. */
  includeDaysWithoutClicks?: boolean;
  /** Epoch ms of now (for "today"). */
  now: number;
  /** Field names for errors (hosts relabel them). */
  fromField?: string;
  toField?: string;
}

/** The longest range filled with days: ten years of rows is already more than any sheet wants. */
export const MAX_FILLED_DAYS = 3660;

/** The per-day rows of one link's statistics within the range, filled with 0-click days when asked. */
export function dailyClicks(clicksByDay: readonly DayClicks[], options: DailyClicksOptions): DayClicks[] {
  const fromField = options.fromField ?? 'from';
  const toField = options.toField ?? 'to';
  const from = options.from === undefined ? undefined : checkDay(options.from, fromField);
  const to = options.to === undefined ? undefined : checkDay(options.to, toField);
  if (from !== undefined && to !== undefined && from > to) {
    throw new InputError(fromField, `${fromField} (${from}) must be on or before ${toField} (${to}).`);
  }
  const rows = [...clicksByDay].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const inRange = rows.filter((row) => (from === undefined || row.date >= from) && (to === undefined || row.date <= to));
  if (!options.includeDaysWithoutClicks) return inRange.map((row) => ({ date: row.date, clicks: row.clicks }));

  const start = from ?? rows[0]?.date;
  // Without clicks and without a first day there is no range to fill.
  if (start === undefined) return [];
  const today = new Date(options.now).toISOString().slice(0, 10);
  const end = to ?? (rows.length > 0 && rows[rows.length - 1]!.date > today ? rows[rows.length - 1]!.date : today);
  if (end < start) return [];
  const span = dayNumber(end) - dayNumber(start) + 1;
  if (span > MAX_FILLED_DAYS) {
    throw new InputError(
      from !== undefined ? fromField : toField,
      `${fromField} to ${toField} spans ${span} days (${start} to ${end}); with days without clicks at most ${MAX_FILLED_DAYS} days can be output. Choose a shorter range.`,
    );
  }
  const byDay = new Map(inRange.map((row) => [row.date, row.clicks]));
  const out: DayClicks[] = [];
  for (let number = dayNumber(start); number <= dayNumber(end); number++) {
    const date = dayOfNumber(number);
    out.push({ date, clicks: byDay.get(date) ?? 0 });
  }
  return out;
}
