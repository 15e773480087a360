/**
 * Date pickers in workflow tools (n8n's dateTime field) store a wall time without a zone, such as
 * "2026-12-31T00:00:00"; it means that time in the workflow's time zone. This turns it into an instant
 * (ISO 8601, UTC) with the platform's Intl data, no date library. Text that carries a zone is kept as is.
 */
import { InputError } from './errors';

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** How far the zone's clock is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a date/time text means: with a zone (Z, +02:00) as written, without one as wall time in
 * `timeZone` (an IANA name such as Europe/Berlin). Undefined when the text is not a date. Throws an
 * InputError for an unknown time zone.
 */
export function wallTimeToIso(text: string, timeZone: string): string | undefined {
  const trimmed = text.trim();
  if (/(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
  }
  const match = WALL_TIME.exec(trimmed);
  if (!match) return undefined;
  const [year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = match.slice(1);
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0'))] as const;
  const wallAsUtc = Date.UTC(...fields);
  const check = new Date(wallAsUtc);
  // 30 February or 25:00 would roll over into another date: not a date.
  if (check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2] || check.getUTCHours() !== fields[3] || fields[4] > 59 || fields[5] > 59) {
    return undefined;
  }
  try {
    // Twice: the offset at the guessed instant may differ from the offset at the wall time (DST change).
    const guess = wallAsUtc - offsetAt(wallAsUtc, timeZone);
    return new Date(wallAsUtc - offsetAt(guess, timeZone)).toISOString();
  } catch {
    throw new InputError('timeZone', `The time zone "${timeZone}" is not known; use an IANA name such as Europe/Berlin.`);
  }
}
