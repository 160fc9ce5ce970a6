import { registerDecorator, ValidationOptions } from 'class-validator';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):?(\d{2}))$/;
const DAY_MS = 86_400_000;

function validDay(year: number, month: number, day: number): boolean {
  if (year < 1970 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads a filter bound of spec 2 (`createdStart`, `createdEnd`: "date"): a calendar day
 * `yyyy-mm-dd` (a UTC day) or an ISO 8601 timestamp with `Z` or a numeric offset. A start is the
 * instant itself (a day: its first instant); an end is exclusive, just after the instant (a day:
 * the next day's first instant, so the whole day is in). Null when the text is neither.
 */
export function parseTimeBound(text: string, bound: 'start' | 'end'): Date | null {
  const day = DATE.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!validDay(year, month, date)) return null;
    const start = Date.UTC(year, month - 1, date);
    return new Date(bound === 'start' ? start : start + DAY_MS);
  }
  const stamp = TIMESTAMP.exec(text);
  if (!stamp) return null;
  const [year, month, date, hour, minute, second] = stamp.slice(1, 7).map(Number);
  if (!validDay(year, month, date) || hour > 23 || minute > 59 || second > 59) return null;
  if (stamp[9] !== undefined && (Number(stamp[9]) > 23 || Number(stamp[10]) > 59)) return null;
  const instant = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(instant)) return null;
  // Instants are kept to the millisecond: an end bound takes in the whole millisecond it names.
  return new Date(bound === 'start' ? instant : Math.floor(instant) + 1);
}

/** A query parameter that {@link parseTimeBound} reads. */
export function IsTimeBound(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTimeBound',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be a date (yyyy-mm-dd) or an ISO 8601 timestamp with Z or an offset', ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && parseTimeBound(value, 'start') !== null },
    });
}
