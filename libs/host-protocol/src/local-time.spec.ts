import { HOST_MESSAGE_FORMATS, sendsLocalTime } from '@app/contracts';
import fc from 'fast-check';
import { dialectFor } from './dialect-for';
import { instantOfTransmission, localDateTime, transmissionTimeOf, wireContextAt } from './local-time';
import { authorizeRequest, target, wireContext } from './testing/factories';

/** Every zone this runtime knows (Node's full ICU), aliases included. */
const ZONES = Intl.supportedValuesOf('timeZone');

/**
 * The zone's UTC offset at `instant` in minutes, from Intl's own offset name (`GMT+05:45`): a
 * reading independent of the hour and day fields `localDateTime` takes from Intl.
 */
function offsetMinutes(instant: Date, timeZone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')!.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`unexpected offset ${name}`);
  if (match[1] === undefined) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

const two = (n: number) => String(n).padStart(2, '0');

/** MMDD and hhmmss of the wall clock `offset` minutes from UTC. */
function shifted(instant: Date, offset: number): { date: string; time: string } {
  const wall = new Date(instant.getTime() + offset * 60_000);
  return {
    date: `${two(wall.getUTCMonth() + 1)}${two(wall.getUTCDate())}`,
    time: `${two(wall.getUTCHours())}${two(wall.getUTCMinutes())}${two(wall.getUTCSeconds())}`,
  };
}

describe('local date and time (fields 12 and 13)', () => {
  it('should be the wall clock of the zone at the instant, for any instant and IANA zone', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2037-12-31T23:59:59Z'), noInvalidDate: true }), fc.constantFrom(...ZONES), (instant, zone) => {
        expect(localDateTime(instant, zone)).toEqual(shifted(instant, offsetMinutes(instant, zone)));
      }),
      { numRuns: 2000 },
    );
  });

  it('should agree with Intl.DateTimeFormat of the zone around midnight and DST changes', () => {
    // Instants near local midnight or a transition, where an off-by-one shows.
    const zones = ['Asia/Kuala_Lumpur', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 2020, max: 2035 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: -90, max: 90 }),
        (zone, year, month, day, seconds) => {
          const instant = new Date(Date.UTC(year, month, day) - offsetMinutes(new Date(Date.UTC(year, month, day)), zone) * 60_000 + seconds * 1000);
          const expected = new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
          const part = (type: string) => expected.find((p) => p.type === type)!.value;
          expect(localDateTime(instant, zone)).toEqual({ date: `${part('month')}${part('day')}`, time: `${part('hour')}${part('minute')}${part('second')}` });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('should give Kuala Lumpur the next day from 16:00 UTC, and field 7 still in UTC', () => {
    const context = wireContextAt('000001', new Date('2026-01-15T16:30:05Z'), 'Asia/Kuala_Lumpur');
    expect(context).toEqual({ stan: '000001', transmittedAt: '0115163005', localDate: '0116', localTime: '003005' });
    expect(wireContextAt('000001', new Date('2026-01-15T15:59:59Z'), 'Asia/Kuala_Lumpur')).toMatchObject({ localDate: '0115', localTime: '235959' });
  });

  it('should follow daylight saving time (New York, 8 March 2026)', () => {
    expect(localDateTime(new Date('2026-03-08T06:59:59Z'), 'America/New_York')).toEqual({ date: '0308', time: '015959' });
    expect(localDateTime(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toEqual({ date: '0308', time: '030000' });
  });

  it('should write midnight as 00, never 24', () => {
    expect(localDateTime(new Date('2026-06-30T16:00:00Z'), 'Asia/Kuala_Lumpur')).toEqual({ date: '0701', time: '000000' });
    expect(localDateTime(new Date('2026-06-30T00:00:00Z'), 'UTC')).toEqual({ date: '0630', time: '000000' });
  });
});

describe('which formats send local time (LOCAL_TIME_FORMATS, which the gateway requires a timeZone for)', () => {
  it.each(HOST_MESSAGE_FORMATS.filter((format) => format !== 'MOCK'))('should list %s exactly when its authorisation changes with the local time and date', (format) => {
    const request = authorizeRequest({ target: target({ hostMessageFormat: format, connUrl: null }) });
    const dialect = dialectFor(format);
    const sent = (localTime: string, localDate: string) => {
      const context = wireContext({ stan: '000123', localTime, localDate });
      return dialect.kind === 'iso' ? dialect.packRequest('authorize', request, context).payload.toString('hex') : JSON.stringify(dialect.buildHttpRequest('authorize', request, context));
    };
    expect(sent('103000', '0115') !== sent('183000', '0116')).toBe(sendsLocalTime(format));
  });
});

describe('instantOfTransmission (a batch upload names its transaction’s own time)', () => {
  it('should give back any instant of the past year from its field 7, and the latest one not after now', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 360 * 86_400 }), (now, agoSeconds) => {
        const sent = new Date(Math.floor(now.getTime() / 1000) * 1000 - agoSeconds * 1000);

        expect(instantOfTransmission(transmissionTimeOf(sent), now)).toEqual(sent);
      }),
    );
  });

  it('should read 29 February only in a leap year, and no date as null', () => {
    expect(instantOfTransmission('0229120000', new Date('2027-03-01T00:00:00Z'))).toEqual(new Date('2024-02-29T12:00:00Z'));
    expect(instantOfTransmission('1231235959', new Date('2027-01-01T00:10:00Z'))).toEqual(new Date('2026-12-31T23:59:59Z'));
    expect(instantOfTransmission('1332000000', new Date('2027-01-01T00:00:00Z'))).toBeNull();
    expect(instantOfTransmission('0101246000', new Date('2027-01-01T00:00:00Z'))).toBeNull();
  });
});
