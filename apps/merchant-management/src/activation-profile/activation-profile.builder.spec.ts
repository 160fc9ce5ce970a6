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
});
