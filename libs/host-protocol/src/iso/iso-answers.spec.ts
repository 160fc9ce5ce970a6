import { compileSpec, DEFAULT_HOST_RULES, Iso8583Message, pack, unpack } from '@app/iso8583';
import iso8583Json from '../../../iso8583/specs/iso8583.json';
import fc from 'fast-check';
import { HostOperation } from '../dialect';
import { IsoHostDialect } from './iso-dialect';
import { networkRequest, target, wireContext } from '../testing/factories';
import { formatKeyField } from './iso-fields';

/** Answers read by a format's `host` rules: which codes approve, partial approvals, field 55. */

const CODE = fc.stringMatching(/^[0-9A-Za-z]{2}$/);
const FINANCIAL: readonly HostOperation[] = ['authorize', 'void', 'refund', 'capture'];

function dialectWith(host?: Record<string, unknown>): IsoHostDialect {
  return new IsoHostDialect('ISO8583', compileSpec(host === undefined ? iso8583Json : { ...iso8583Json, host }));
}

const answer = (fields: Record<number, string | Buffer>, mti = '0210'): Iso8583Message => ({ mti, fields: { 11: '000042', 41: 'TERM0001', ...fields } });

/** A spec's approval or acknowledgement codes always hold 00 (the spec refuses a list without it). */
const withZeroZero = (codes: string[]): string[] => (codes.includes('00') ? codes : ['00', ...codes]);

describe('ISO dialect: which answers approve', () => {
  it('should approve a financial request with every configured approval code and with no other code', () => {
    fc.assert(
      fc.property(fc.uniqueArray(CODE, { minLength: 1, maxLength: 6 }).map(withZeroZero), CODE, fc.constantFrom(...FINANCIAL), (approvalCodes, code, operation) => {
        const dialect = dialectWith({ approvalCodes, partialApprovalCode: null, voidAs: '0200' });
        for (const approving of approvalCodes) expect(dialect.parseResponse(operation, answer({ 39: approving })).approved).toBe(true);
        expect(dialect.parseResponse(operation, answer({ 39: code })).approved).toBe(approvalCodes.includes(code));
      }),
    );
  });

  it('should approve with 00, 08, 10, 11 and 16 when the spec has no host section, and decline every other code', () => {
    const dialect = dialectWith();
    fc.assert(
      fc.property(CODE, fc.constantFrom(...FINANCIAL.filter((operation) => operation !== 'void')), (code, operation) => {
        const fields: Record<number, string> = code === '10' ? { 39: code, 4: '000000000500' } : { 39: code };
        expect(dialect.parseResponse(operation, answer(fields)).approved).toBe(['00', '08', '10', '11', '16'].includes(code));
      }),
    );
  });

  it('should count a reversal acknowledged only with a configured acknowledging code (default 00)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(CODE, { minLength: 1, maxLength: 4 }).map(withZeroZero), CODE, (acknowledging, code) => {
        const dialect = dialectWith({ reversalAcknowledgedCodes: acknowledging });
        expect(dialect.parseResponse('reverse', answer({ 39: code }, '0410')).approved).toBe(acknowledging.includes(code));
        expect(dialectWith().parseResponse('reverse', answer({ 39: code }, '0410')).approved).toBe(code === '00' || code === '94');
        // A void sent as a reversal (the default) is acknowledged like one; sent as a 0200, approved like a sale.
        expect(dialectWith({ reversalAcknowledgedCodes: acknowledging }).parseResponse('void', answer({ 39: code }, '0410')).approved).toBe(acknowledging.includes(code));
        expect(dialectWith({ reversalAcknowledgedCodes: acknowledging, voidAs: '0200' }).parseResponse('void', answer({ 39: code })).approved).toBe(
          DEFAULT_HOST_RULES.approvalCodes.includes(code),
        );
      }),
    );
  });

  it('should mark a refusal transient only with a configured transient code (default 09 19 22 28 68 90 91 92 96; may be none), never an approval', () => {
    const transientOnly = (codes: string[]) => codes.filter((code) => !DEFAULT_HOST_RULES.approvalCodes.includes(code) && !DEFAULT_HOST_RULES.reversalAcknowledgedCodes.includes(code));
    fc.assert(
      fc.property(fc.uniqueArray(CODE, { maxLength: 4 }).map(transientOnly), CODE, fc.constantFrom<HostOperation>('reverse', 'void', 'refund'), (transientCodes, code, operation) => {
        const mti = operation === 'refund' ? '0210' : '0410';
        const read = dialectWith({ transientCodes }).parseResponse(operation, answer({ 39: code }, mti));
        expect(read.transient === true).toBe(!read.approved && transientCodes.includes(code));
        expect(dialectWith().parseResponse(operation, answer({ 39: code }, mti)).transient === true).toBe(['09', '19', '22', '28', '68', '90', '91', '92', '96'].includes(code));
      }),
    );
  });

  it('should approve network messages and reconciliation with 00 only', () => {
    fc.assert(
      fc.property(CODE, fc.constantFrom<HostOperation>('echo', 'settle'), (code, operation) => {
        expect(dialectWith().parseResponse(operation, answer({ 39: code }, operation === 'settle' ? '0510' : '0810')).approved).toBe(code === '00');
      }),
    );
  });
});

describe('ISO dialect: partial approvals', () => {
  it('should read the approved amount of a 10 from field 4 and its currency from field 49', () => {
    const read = dialectWith().parseResponse('authorize', answer({ 39: '10', 4: '000000000750', 49: '458' }));
    expect(read).toMatchObject({ approved: true, hostRespCode: '10', hostRespMessage: 'Approved for partial amount', approvedAmount: { minor: '750', currency: '458' } });
  });

  it('should read the amount from the field the spec names', () => {
    const read = dialectWith({ partialApprovalCode: '10', partialAmountField: 6 }).parseResponse('authorize', answer({ 39: '10', 4: '000000001000', 6: '000000000400' }));
    expect(read.approvedAmount).toEqual({ minor: '400', currency: null });
  });

  it('should need the partial amount field in an answer (answerFieldsNeeded), and read 44, 55 and 15 tolerantly', () => {
    const needed = dialectWith({ partialApprovalCode: '10', partialAmountField: 6 }).answerFieldsNeeded('authorize');
    for (const number of [4, 6, 11, 37, 38, 39, 41, 49]) expect(needed).toContain(number);
    for (const number of [15, 44, 55]) expect(needed).not.toContain(number);
    // A 44 over its maximum is left out; the partial amount in 6 is still read.
    const hostSpec = compileSpec({ ...iso8583Json, fields: { ...iso8583Json.fields, 44: { ...iso8583Json.fields['44'], length: 60 } } } as typeof iso8583Json);
    const wire = pack(hostSpec, answer({ 39: '10', 6: '000000000400', 44: 'R'.repeat(40), 49: '458' }));
    const read = unpack(dialectWith().spec, wire, { tolerantExcept: needed });
    expect(read.skippedFields?.map((skipped) => skipped.number)).toEqual([44]);
    expect(dialectWith({ partialApprovalCode: '10', partialAmountField: 6 }).parseResponse('authorize', read).approvedAmount).toEqual({ minor: '400', currency: '458' });
  });

  it('should read a partial approval of a capture or a refund as it does an authorisation (review of issue 16)', () => {
    for (const operation of ['capture', 'refund'] as const) {
      expect(dialectWith().parseResponse(operation, answer({ 39: '10', 4: '000000000750', 49: '458' }, '0230')).approvedAmount).toEqual({ minor: '750', currency: '458' });
    }
  });

  it('should read a partial approval without a readable amount as an approval of an unnamed amount: what was charged is unknown', () => {
    for (const fields of [{ 39: '10' }, { 39: '10', 4: '12AB' }] as Array<Record<number, string>>) {
      const read = dialectWith().parseResponse('authorize', answer(fields));
      expect(read).toMatchObject({ approved: true, hostRespCode: '10', approvedAmountUnnamed: true });
      expect(read.approvedAmount).toBeUndefined();
    }
  });

  it('should carry no approved amount on a full approval or when the format has no partial approval code', () => {
    expect(dialectWith().parseResponse('authorize', answer({ 39: '00', 4: '000000000750' })).approvedAmount).toBeUndefined();
    expect(dialectWith({ partialApprovalCode: null }).parseResponse('authorize', answer({ 39: '10', 4: '000000000750' })).approvedAmount).toBeUndefined();
  });
});

describe('ISO dialect: field 55 of answers', () => {
  it('should carry field 55 as uppercase hex, as received on the wire', () => {
    const dialect = dialectWith();
    // 91: issuer authentication data; 72: an issuer script holding its identifier 9F18.
    const icc = Buffer.from('910A0102030405060708090A' + '7207' + '9F180400000001', 'hex');
    const wire = unpack(dialect.spec, pack(dialect.spec, answer({ 39: '00', 55: icc })));
    expect(dialect.parseResponse('authorize', wire).iccResponse).toBe(icc.toString('hex').toUpperCase());
    expect(dialect.parseResponse('authorize', answer({ 39: '00' })).iccResponse).toBeUndefined();
  });
});

describe('spec host section', () => {
  it('should take the documented defaults when absent', () => {
    expect(compileSpec(iso8583Json).host).toEqual(DEFAULT_HOST_RULES);
    expect(DEFAULT_HOST_RULES).toEqual({
      approvalCodes: ['00', '08', '10', '11', '16'],
      partialApprovalCode: '10',
      partialAmountField: 4,
      reversalAcknowledgedCodes: ['00', '94'],
      transientCodes: ['09', '19', '22', '28', '68', '90', '91', '92', '96'],
      workingKey: 'signOn',
      keyExchangeCode: '101',
      reconciliationLayout: 'terminal',
      reconciliationTotals: 'fields74to89',
      outOfBalanceCode: '95',
      batchUpload: true,
      voidAs: 'reversal',
      followUpCardData: ['reverse', 'void', 'refund', 'capture'],
      followUpEntryMode: '010',
      reversalIcc: true,
    });
  });

  it.each([
    [{ approvalCodes: [] }, /approvalCodes/],
    [{ approvalCodes: ['08'], partialApprovalCode: null }, /spec host approvalCodes.*must include 00/],
    [{ reversalAcknowledgedCodes: ['94'] }, /spec host reversalAcknowledgedCodes.*must include 00/],
    [{ approvalCodes: ['000'] }, /approvalCodes/],
    [{ reversalAcknowledgedCodes: '00' }, /reversalAcknowledgedCodes/],
    [{ approvalCodes: ['00'], partialApprovalCode: '10' }, /partialApprovalCode/],
    [{ partialAmountField: 130 }, /partialAmountField/],
    [{ partialAmountField: 54 }, /partialAmountField.*amount field/],
    [{ partialAmountField: 2 }, /partialAmountField.*amount field/],
    [{ approvalCode: ['00'] }, /unknown key "approvalCode"/],
    [{ workingKey: 'always' }, /spec host workingKey.*signOn, keyExchange, none/],
    [{ workingKey: null }, /spec host workingKey/],
    [{ voidAs: '0400' }, /voidAs/],
    [{ followUpCardData: ['authorize'] }, /followUpCardData/],
    [{ followUpCardData: 'refund' }, /followUpCardData/],
    [{ followUpEntryMode: '07' }, /followUpEntryMode/],
    [{ followUpEntryMode: 71 }, /followUpEntryMode/],
    [{ reversalIcc: 'yes' }, /spec host reversalIcc.*true or false/],
    [{ reversalIcc: null }, /spec host reversalIcc/],
    [{ transientCodes: ['9'] }, /transientCodes/],
    [{ transientCodes: '96' }, /spec host transientCodes.*must be a list of 2-character response codes \(may be empty\)/],
    [{ transientCodes: ['94'] }, /spec host transientCodes.*must not hold an approval or acknowledging code/],
    [{ transientCodes: ['08'] }, /spec host transientCodes.*must not hold an approval or acknowledging code/],
  ])('should refuse the host section %j', (host, message) => {
    expect(() => dialectWith(host)).toThrow(message);
  });
});

describe('ISO dialect: working keys by the spec host section', () => {
  const KEY = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => Buffer.from(bytes));
  const CHECK = fc.stringMatching(/^[0-9A-F]{6}$/);
  const signOnAnswer = (fields: Record<number, string> = {}) => answer({ 39: '00', 70: '001', ...fields }, '0810');

  it('should read the key an approved sign-on carries in field 48 (signOn, the default), with no exchange to follow', () => {
    fc.assert(
      fc.property(KEY, CHECK, (key, check) => {
        const read = dialectWith().parseResponse('signon', signOnAnswer({ 48: formatKeyField(key, check) }));
        expect(read.workingKeyUnderZmk?.equals(key)).toBe(true);
        expect(read.keyCheckValue).toBe(check);
        expect(read.keyExchangeNeeded).toBeUndefined();
      }),
    );
  });

  it.each([
    ['signOn', 'no field 48', {}],
    ['signOn', 'a field 48 that is no key', { 48: 'WELCOME' }],
    ['keyExchange', 'a key in field 48', { 48: formatKeyField(Buffer.alloc(16, 7), 'ABCDEF') }],
  ])('should read an approved sign-on (%s) with %s as approved, without a key, a key exchange to follow', (workingKey, _what, fields) => {
    const read = dialectWith({ workingKey }).parseResponse('signon', signOnAnswer(fields));
    expect(read).toMatchObject({ approved: true, hostRespCode: '00', keyExchangeNeeded: true });
    expect(read.workingKeyUnderZmk).toBeUndefined();
  });

  it('should refuse an approved key exchange whose field 48 is there but holds no key as unreadable, naming the field', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ -~]{1,60}$/).filter((text) => text.trim() !== '' && !/^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{48})[0-9A-Fa-f]{6}$/.test(text.trim())), (text) => {
        expect(() => dialectWith().parseResponse('keyexchange', signOnAnswer({ 48: text }))).toThrow(/field 48, which keyexchange reads, is unreadable: not a working key/);
      }),
    );
  });

  it('should read no key and want no exchange from a host that issues none (none), nor from a declined sign-on', () => {
    const key = { 48: formatKeyField(Buffer.alloc(16, 7), 'ABCDEF') };
    for (const read of [dialectWith({ workingKey: 'none' }).parseResponse('signon', signOnAnswer(key)), dialectWith().parseResponse('signon', signOnAnswer({ 39: '91' }))]) {
      expect(read.workingKeyUnderZmk).toBeUndefined();
      expect(read.keyExchangeNeeded).toBeUndefined();
    }
  });

  it.each(['signOn', 'keyExchange'])('should read the key of an approved key exchange (%s), and an approved key exchange without one as keyless', (workingKey) => {
    const dialect = dialectWith({ workingKey });
    const key = Buffer.alloc(16, 9);
    expect(dialect.parseResponse('keyexchange', answer({ 39: '00', 70: '101', 48: formatKeyField(key, '123456') }, '0810')).workingKeyUnderZmk?.equals(key)).toBe(true);
    const keyless = dialect.parseResponse('keyexchange', answer({ 39: '00', 70: '101' }, '0810'));
    expect(keyless).toMatchObject({ approved: true });
    expect(keyless.workingKeyUnderZmk).toBeUndefined();
    expect(keyless.keyExchangeNeeded).toBeUndefined();
  });

  it("should send a key exchange with the spec's keyExchangeCode in field 70 (101 without one), and refuse codes that name another network function", () => {
    const request = networkRequest(target());
    const context = wireContext();
    expect(dialectWith().buildRequest('keyexchange', request, context).fields[70]).toBe('101');
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('001', '002', '301'), fc.stringMatching(/^[0-9]{3}$/)), (code) => {
        if (['001', '002', '301'].includes(code)) {
          expect(() => dialectWith({ keyExchangeCode: code })).toThrow(/keyExchangeCode/);
          return;
        }
        const dialect = dialectWith({ keyExchangeCode: code });
        const built = dialect.buildRequest('keyexchange', request, context);
        expect(built).toMatchObject({ mti: '0800', fields: { 70: code } });
        expect(dialect.buildRequest('signon', request, context).fields[70]).toBe('001');
        expect(unpack(dialect.spec, pack(dialect.spec, built)).fields[70]).toBe(code);
      }),
    );
    for (const bad of ['1', '1010', 'ABC', 101]) expect(() => dialectWith({ keyExchangeCode: bad })).toThrow(/keyExchangeCode/);
  });
});
