import { CARD_ACCEPTOR_LAYOUT, cardAcceptorNameLocation } from '@app/host-protocol';
import fc from 'fast-check';
import { cityOf, hostMerchantOf, hostTargetOf, merchantNowOf, merchantTimeZoneOf } from './host-target';
import type { BoundAcceptance } from './persistence/profile.repository';

function acceptance(overrides: Partial<BoundAcceptance> = {}): BoundAcceptance {
  return {
    id: 'acpt_a',
    acptName: 'Acquirer A',
    hostMessageFormat: 'ISO8583',
    supportedPayments: ['VISA'],
    primaryMid: 'MID000000000001',
    primaryTid: 'TID00001',
    extraParams: {},
    hostUrl: null,
    ...overrides,
  };
}

describe('hostTargetOf', () => {
  it("should name the acceptance's format, address, MID, TID, acquirer id and PBO", () => {
    expect(hostTargetOf(acceptance({ hostUrl: 'tcp://acq:8583', extraParams: { acqInstId: '60012345' } }), 'grp_a', 'sign on')).toEqual({
      hostMessageFormat: 'ISO8583',
      connUrl: 'tcp://acq:8583',
      acptId: 'acpt_a',
      mid: 'MID000000000001',
      tid: 'TID00001',
      acquirerId: '60012345',
      groupId: 'grp_a',
    });
  });

  it('should never take an address from extraParams, whatever they hold: only the pushed hostUrl, else the connector default', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((key) => key !== 'acqInstId' && key !== '__proto__'), fc.jsonValue()), fc.oneof(fc.webUrl(), fc.string()), fc.option(fc.constantFrom('tcp://acq:8583', 'https://acq.example/pay')), (extra, url, pushed) => {
        const target = hostTargetOf(acceptance({ extraParams: { ...extra, connUrl: url, hostUrl: url, url }, hostUrl: pushed }), 'grp_a', 'sign on');
        expect(target).toMatchObject({ connUrl: pushed });
      }),
    );
  });

  it('should say why an acceptance cannot be asked, ending with the purpose', () => {
    expect(hostTargetOf(acceptance({ primaryTid: null }), 'grp_a', 'take payments')).toBe('primaryTid must be 1 to 8 letters or digits (field 41) to take payments');
    expect(hostTargetOf(acceptance({ primaryMid: 'MID-WITH-DASHES' }), 'grp_a', 'sign on')).toBe('primaryMid must be 1 to 15 letters, digits or spaces, not spaces only (field 42) to sign on');
    expect(hostTargetOf(acceptance({ extraParams: { acqInstId: 'BANK' } }), 'grp_a', 'take payments')).toBe(
      'extraParams.acqInstId must be 1 to 11 digits to take payments',
    );
    expect(hostTargetOf(acceptance({ hostMessageFormat: 'SVC_ENABLER' }), 'grp_a', 'sign on')).toBe('host format SVC_ENABLER has no host connector');
  });
});

describe('hostMerchantOf', () => {
  const profile = {
    timeZone: 'Asia/Kuala_Lumpur',
    merchantName: 'Kopi Corner Sdn Bhd',
    merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
    countryCode: 'MY',
    mcc: '5814',
  };

  it("should carry the profile's merchant and the acceptance's sub-merchant", () => {
    expect(hostMerchantOf(profile, acceptance({ extraParams: { subMchDba: 'Kopi Stall' } }), 'Asia/Kuala_Lumpur')).toEqual({
      timeZone: 'Asia/Kuala_Lumpur',
      name: 'Kopi Corner Sdn Bhd',
      city: 'Kuala Lumpur',
      country: 'MY',
      mcc: '5814',
      subMerchantName: 'Kopi Stall',
    });
  });

  it('should name no sub-merchant unless one is named that reaches the host (one stored before the rule, blank once ASCII, is left out)', () => {
    expect(hostMerchantOf(profile, acceptance({ extraParams: { subMchDba: '北京饭店' } }), 'UTC').subMerchantName).toBeUndefined();
    expect(hostMerchantOf(profile, acceptance({ extraParams: { subMchDba: '  ' } }), 'UTC')).toEqual({
      timeZone: 'UTC',
      name: 'Kopi Corner Sdn Bhd',
      city: 'Kuala Lumpur',
      country: 'MY',
      mcc: '5814',
    });
  });
});

describe('cityOf', () => {
  it.each([
    ['1 Jalan Ampang, Kuala Lumpur', 'Kuala Lumpur'],
    ['Kuala Lumpur', 'Kuala Lumpur'],
    ['1 Jalan Ampang, ', null],
    [null, null],
    [`1 Jalan Ampang, ${'K'.repeat(65)}`, null],
  ])('should read %j as %j', (address, city) => {
    expect(cityOf(address)).toBe(city);
  });

  it('should leave out a city that would reach field 43 blank, and for any Unicode address carry a printable non-blank city, or none', () => {
    for (const address of ['1 Jalan Ampang, 北京', 'Main St, \u200b\u0301', 'Road, ——']) expect(cityOf(address)).toBeNull();
    expect(cityOf('1 Rue, Montréal')).toBe('Montréal');
    const part = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('北京', '\u200b', '\u0301', 'é', 'Kuala Lumpur', ' '));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }).map((parts) => parts.join(',')), (address) => {
        const field = cardAcceptorNameLocation(hostMerchantOf({ merchantName: 'Kopi Corner', merchantAddr: address, countryCode: 'MY', mcc: null }, acceptance(), 'UTC'));
        const city = field.slice(CARD_ACCEPTOR_LAYOUT.name, CARD_ACCEPTOR_LAYOUT.name + CARD_ACCEPTOR_LAYOUT.city);
        expect(field).toMatch(/^[\x20-\x7e]{40}$/);
        // No city: blank, as the layout has it; a city: printable text, never blank.
        if (cityOf(address) === null) expect(city.trim()).toBe('');
        else expect(city.trim()).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});

describe('merchantTimeZoneOf', () => {
  it("should send the profile's own zone, with nothing to log", () => {
    expect(merchantTimeZoneOf({ timeZone: 'Asia/Kuching', countryCode: 'MY' }, 2026)).toEqual({ zone: 'Asia/Kuching', fallback: null });
  });

  it("should fall back to the country's zone for a profile stored without one, saying so", () => {
    expect(merchantTimeZoneOf({ timeZone: null, countryCode: 'MY' }, 2026)).toEqual({
      zone: 'Asia/Kuala_Lumpur',
      fallback: 'no timeZone: hosts are sent the local time of Asia/Kuala_Lumpur, the zone of countryCode MY',
    });
  });

  it('should fall back to UTC, saying why, without a country or for a country of several offsets', () => {
    expect(merchantTimeZoneOf({ timeZone: null, countryCode: null }, 2026)).toEqual({ zone: 'UTC', fallback: 'no timeZone and no countryCode: hosts are sent UTC' });
    expect(merchantTimeZoneOf({ timeZone: null, countryCode: 'US' }, 2026)).toEqual({
      zone: 'UTC',
      fallback: 'no timeZone and countryCode US has zones of different offsets: hosts are sent UTC',
    });
  });
});

describe('merchantNowOf', () => {
  const kept = { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner', city: 'Kuala Lumpur', country: 'MY', mcc: '5814', subMerchantName: 'Kopi Sub' };

  it('should send the zone the profile has now and everything else as the sale was sent; the stored zone when the profile has none or is gone', () => {
    fc.assert(
      fc.property(fc.option(fc.constantFrom('America/St_Johns', 'Asia/Kuala_Lumpur', 'UTC', 'Asia/Tokyo'), { nil: null }), fc.boolean(), (zone, gone) => {
        const sent = merchantNowOf(kept, gone ? null : { timeZone: zone });
        expect(sent).toEqual({ ...kept, timeZone: gone || zone === null ? kept.timeZone : zone });
      }),
    );
  });
});
