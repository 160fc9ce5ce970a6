import fc from 'fast-check';
import { parseTimeBound } from './time-range';

const DAY = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('parseTimeBound', () => {
  it('should read every calendar day from 1970 on as that UTC day: its first instant to start, the next day to end', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 30)), noInvalidDate: true }), (date) => {
        const day = date.toISOString().slice(0, 10);
        const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
        expect([parseTimeBound(day, 'start')?.getTime(), parseTimeBound(day, 'end')?.getTime()]).toEqual([start, start + DAY]);
      }),
    );
  });

  it('should refuse days a calendar does not have', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        expect(parseTimeBound(`${year}-${pad(month)}-${pad(last + 1)}`, 'start')).toBeNull();
        expect(parseTimeBound(`${year}-${pad(month)}-${pad(last)}`, 'start')).not.toBeNull();
      }),
    );
    for (const text of ['2026-00-10', '2026-13-01', '2026-01-00', '1969-12-31', '2025-02-29']) expect(parseTimeBound(text, 'start')).toBeNull();
  });

  it('should read a timestamp with Z or an offset as its instant, and an end just after it', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(1971, 0, 1)), max: new Date(Date.UTC(9998, 0, 1)), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.boolean(),
        (date, offsetMinutes, colon) => {
          const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}${colon ? ':' : ''}${pad(Math.abs(offsetMinutes) % 60)}`;
          expect(parseTimeBound(`${local}${offset}`, 'start')?.getTime()).toBe(date.getTime());
          expect(parseTimeBound(`${date.toISOString()}`, 'end')?.getTime()).toBe(date.getTime() + 1);
        },
      ),
    );
  });

  it('should refuse anything else', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/^\d{4}-\d{2}-\d{2}/.test(text)),
        (text) => expect(parseTimeBound(text, 'start')).toBeNull(),
      ),
    );
    for (const text of [
      '2026-01-01T10:00:00',
      '2026-01-01 10:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-01-01T10:00:00+24:00',
      '2026-01-01T10:00:00+05:60',
      '20260101',
    ])
      expect(parseTimeBound(text, 'end')).toBeNull();
  });
});
