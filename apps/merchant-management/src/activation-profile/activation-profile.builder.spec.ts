import fc from 'fast-check';
import { checkAcceptanceParams } from '../shared/acceptance-params';
import { BindingRecord } from './binding-record';
import { buildAcceptances, defaultEmvParams, enablerFields, hasTerminalCountry, hostMessageFormatOf } from './activation-profile.builder';
import { bindingOf } from './testing/in-memory-activation-profile.repository';

function binding(profileId: number, codes: string[], overrides: Partial<BindingRecord> = {}): BindingRecord {
  return bindingOf('m', profileId, codes, { methods: codes.map((code) => ({ paymentMethodCode: code, allows: [], emvs: [] })), ...overrides });
}

const pbo = { gatewayFormat: 'MOCK', defaultMid: 'PBO-MID', enablerParams: null };

describe('activation profile', () => {
  it('should make one acceptance per acquirer profile, merging its currencies', () => {
    const acceptances = buildAcceptances([binding(1, ['01']), { ...binding(1, ['02']), bindingId: 9, currency: 'USD' }, binding(2, ['03'])], pbo, { methodList: null, extParams: null });
    expect(acceptances.map((a) => [a.acquirerProfileId, a.supportedPayments])).toEqual([
      [1, ['VISA', 'MASTERCARD']],
      [2, ['UNIONPAY']],
    ]);
  });

  it('should keep only the profiles whose methods the device accepts', () => {
    expect(buildAcceptances([binding(1, ['01']), binding(2, ['02'])], pbo, { methodList: ['02'], extParams: null }).map((a) => a.acquirerProfileId)).toEqual([2]);
  });

  it('should take the MID from the device, else the binding, else the PBO', () => {
    const ext = { acquirers: { '1': { acqMid: 'DEV-MID', acqTid: 'T1' } } };
    expect(buildAcceptances([binding(1, ['01'], { mid: 'BIND-MID' })], pbo, { methodList: null, extParams: ext })[0]).toMatchObject({ primaryMid: 'DEV-MID', primaryTid: 'T1' });
    expect(buildAcceptances([binding(1, ['01'], { mid: 'BIND-MID' })], pbo, { methodList: null, extParams: null })[0]).toMatchObject({ primaryMid: 'BIND-MID', primaryTid: null });
    expect(buildAcceptances([binding(1, ['01'])], pbo, { methodList: null, extParams: null })[0].primaryMid).toBe('PBO-MID');
  });

  it('should refuse a missing enabler field strictly and leave the acceptance out otherwise', () => {
    const bindings = [binding(1, ['01'], { enablerParams: 'acqMid;acqTid' }), binding(2, ['02'])];
    const device = { methodList: null, extParams: { acquirers: { '1': { acqMid: 'M' } } } };
    expect(() => buildAcceptances(bindings, pbo, device)).toThrow('extParams.acquirers.1.acqTid is required by acquirer profile 1 (Acquirer 1)');
    expect(buildAcceptances(bindings, pbo, device, false).map((a) => a.acquirerProfileId)).toEqual([2]);
  });

  it('should choose the host format: enablerMsgFormat, else the PBO format for SVC_ENABLER, else the host format itself', () => {
    expect(hostMessageFormatOf({ enablerMsgFormat: 'ISO8583', connMessageFormat: 'SVC_ENABLER' }, pbo)).toBe('ISO8583');
    expect(hostMessageFormatOf({ enablerMsgFormat: null, connMessageFormat: 'SVC_ENABLER' }, pbo)).toBe('MOCK');
    expect(hostMessageFormatOf({ enablerMsgFormat: null, connMessageFormat: 'S2M_8583' }, pbo)).toBe('S2M_8583');
  });

  it('should split enabler field lists on commas and semicolons', () => {
    expect(enablerFields(' acqMid, acqTid;subMid ')).toEqual(['acqMid', 'acqTid', 'subMid']);
    expect(enablerFields(null)).toEqual([]);
  });

  it('should derive EMV defaults from the merchant country and currency', () => {
    expect(defaultEmvParams({ country: 'MY', currency: 'MYR', timeZone: 'UTC' })).toMatchObject({ terminalCountryCode: '0458', txnCurrencyCode: '0458' });
  });

  it("should take the terminal country from the merchant's time zone, else its currency, when it has no country", () => {
    expect(defaultEmvParams({ country: null, currency: 'USD', timeZone: 'Asia/Kuala_Lumpur' }).terminalCountryCode).toBe('0458');
    expect(defaultEmvParams({ country: 'SG', currency: 'USD', timeZone: 'Asia/Kuala_Lumpur' }).terminalCountryCode).toBe('0702');
    expect(defaultEmvParams({ country: null, currency: 'USD', timeZone: 'UTC' }).terminalCountryCode).toBe('0840');
    expect(defaultEmvParams({ country: null, currency: 'EUR', timeZone: 'Etc/GMT+5' }).terminalCountryCode).toBeUndefined();
    expect(hasTerminalCountry({ country: null, currency: 'EUR', timeZone: 'UTC' }, { terminalCountryCode: '0276' })).toBe(true);
    expect(hasTerminalCountry({ country: null, currency: 'EUR', timeZone: 'UTC' }, null)).toBe(false);
  });

  describe('acceptance parameters the host is told (acqInstId: field 32, subMchDba: field 43)', () => {
    // As JSON holds them: a key is there with a text, or not there.
    const value = fc.stringMatching(/^[0-9A-Za-z ]{1,20}$/);
    const params = fc.record({ acqInstId: value, subMchDba: value, jwtSecret: value }, { requiredKeys: [] });

    it('should give the gateway each of acqInstId and subMchDba from the device, else the acquirer profile, and nothing else of either', () => {
      fc.assert(
        fc.property(params, params, params, fc.boolean(), (acquirer, device, everyAcquirer, withUrl) => {
          const extParams = { acquirers: { '1': { acqTid: 'T1', ...device } }, allAcquirers: everyAcquirer };
          const [acceptance] = buildAcceptances([binding(1, ['01'], { connExtraParams: acquirer, connUrl: withUrl ? 'tcp://10.0.0.1:5000' : null })], pbo, {
            methodList: null,
            extParams,
          });
          const expected: Record<string, string> = withUrl ? { connUrl: 'tcp://10.0.0.1:5000' } : {};
          for (const name of ['acqInstId', 'subMchDba'] as const) {
            // Fields kept for every acquirer are over the acquirer's own entry (as acqMid / acqTid).
            const chosen = everyAcquirer[name] ?? device[name] ?? acquirer[name];
            if (chosen !== undefined) expected[name] = chosen;
          }
          expect(acceptance.extraParams).toEqual(expected);
        }),
      );
    });

    it('should refuse an acqInstId that is not 1 to 11 digits or a subMchDba blank on the wire, naming the field', () => {
      expect(() => checkAcceptanceParams({ acqInstId: 'BANK-1' }, 'connExtraParams')).toThrow(
        'connExtraParams.acqInstId must be 1 to 11 digits (the acquiring institution id, field 32)',
      );
      expect(() => checkAcceptanceParams({ acqInstId: 60012345 }, 'connExtraParams')).toThrow('connExtraParams.acqInstId must be 1 to 11 digits');
      expect(() => checkAcceptanceParams({ acqInstId: '123456789012' }, 'x')).toThrow('x.acqInstId must be 1 to 11 digits');
      expect(() => checkAcceptanceParams({ subMchDba: '   ' }, 'x')).toThrow('x.subMchDba must be 1 to 64 characters without control characters, and carry at least one Latin letter or digit');
      // Blank once a host gets it (field 43 is printable ASCII): refused as blank is.
      for (const blank of ['北京饭店', '\u200b\u200d', '\u0301']) expect(() => checkAcceptanceParams({ subMchDba: blank }, 'x')).toThrow('x.subMchDba must be');
      expect(() => checkAcceptanceParams({ subMchDba: 'Kopi\nStall' }, 'x')).toThrow('x.subMchDba must be');
      expect(() => checkAcceptanceParams({ acqInstId: '60012345', subMchDba: 'Kopi Stall', clientId: 7 }, 'x')).not.toThrow();
    });
  });
});
