/**
 * Dates as people enter them in a host's form. Date pickers (n8n's among them) store wall time without a
 * zone, e.g. `2026-12-31T00:00:00`: such a value means that time in the user's time zone, which only the
 * host knows (n8n: the workflow's time zone). Values with a zone (Z or an offset) mean what they say.
 * Everything here is portable: time zones are read through Intl, no library and no host.
 */
import { DAY_MS } from '../basics/calendar-days';
import { InputError } from '../errors';
import { checkTimestamp } from './input-checks';

const ZONED = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;


function show(value: unknown): string {
  return typeof value === 'string' ? `"${value.length > 60 ? `${value.slice(0, 60)}…` : value}"` : String(value);
}

/** One formatter per zone: building them is the slow part of Intl. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in ms (wall time minus UTC). */
function offsetAt(instantMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - (instantMs - (((instantMs % 1000) + 1000) % 1000));
}

/**
 * The instant at which the clocks of `timeZone` show the wall time `wallMs` (a wall time written as if it
 * were UTC). A time that occurs twice (clocks turned back) is its first occurrence; a time that does not
 * occur (clocks turned forward) is moved forward by the gap, as clocks and Luxon do: 02:30 on the night
 * clocks jump from 02:00 to 03:00 is 03:30.
 */
export function instantOfWallTime(wallMs: number, timeZone: string): number {
  const before = offsetAt(wallMs - DAY_MS, timeZone);
  const after = offsetAt(wallMs + DAY_MS, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wallMs - offset)
    .filter((instant) => instant + offsetAt(instant, timeZone) === wallMs)
    .sort((a, b) => a - b);
  return candidates[0] ?? wallMs - before;
}

function isRealDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export interface DateTimeInputOptions {
  /** Field name for the error (the host relabels it). */
  field: string;
  /** IANA zone in which a value without a zone is read, e.g. the n8n workflow's time zone. */
  timeZone: string;
}

/**
 * A date-time from a form: ISO 8601 with a zone as written; without a zone (`2026-12-31T00:00:00`,
 * `2026-12-31 09:30`, or a day alone = its midnight) in `timeZone`. Returns UTC with milliseconds, the form
 * the service stores.
 */
export function readDateTime(value: unknown, options: DateTimeInputOptions): string {
  const { field, timeZone } = options;
  const text = typeof value === 'string' ? value.trim() : '';
  if (ZONED.test(text)) return checkTimestamp(text, field);
  const wall = WALL_TIME.exec(text);
  const [year, month, day, hour, minute, second] = (wall?.slice(1, 7) ?? []).map((part) => Number(part ?? 0));
  const fraction = wall?.[7] ? Number(`0.${wall[7]}`) : 0;
  if (!wall || !isRealDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59) {
    throw new InputError(
      field,
      `${field} must be a date and time such as 2026-12-31T23:59:00 (read in ${timeZone}) or with a time zone such as 2026-12-31T23:59:00Z; got ${show(value)}.`,
    );
  }
  if (!isKnownTimeZone(timeZone)) {
    throw new InputError(field, `${field} has no time zone and the time zone to read it in, ${show(timeZone)}, is unknown; add Z or an offset such as +01:00.`);
  }
  const wallMs = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) + Math.round(fraction * 1000);
  return new Date(instantOfWallTime(wallMs, timeZone)).toISOString();
}

/** `2026-12-31 00:00` as the clocks of `timeZone` show the instant (for messages). */
export function wallTimeIn(instantMs: number, timeZone: string): string {
  const shifted = new Date(instantMs + offsetAt(instantMs, timeZone));
  return shifted.toISOString().slice(0, 16).replace('T', ' ');
}

export interface ExpiryInputOptions extends DateTimeInputOptions {
  /** Epoch ms of now. */
  now: number;
}

/**
 * An expiry from a form (readDateTime), refused when it is not in the future: a link that expires before it
 * exists (or while it is being saved) is a typo or a mapped column from last year, never an intent.
 */
export function readExpiry(value: unknown, options: ExpiryInputOptions): string {
  const iso = readDateTime(value, options);
  const instant = Date.parse(iso);
  if (instant <= options.now) {
    const { field, timeZone } = options;
    throw new InputError(
      field,
      `${field} is in the past: ${wallTimeIn(instant, timeZone)} in ${timeZone} (${iso}) was before now (${wallTimeIn(options.now, timeZone)}). Pick a later date and time, or leave it empty for a link that does not expire.`,
    );
  }
  return iso;
}
