import { countryNumeric, ISO_HOST_FORMATS } from '@app/contracts';
import fc from 'fast-check';
import * as countries from 'i18n-iso-countries';
import { Iso8583Js, orThrow } from '@app/iso8583/test/iso-8583-js';
import * as codec from '@app/iso8583/codec';
import { decodeTlv, Iso8583Message, pack, PRESETS, unpack } from '@app/iso8583';
import { HostProtocolError, IsoDialect } from '../dialect';
import { dialectFor } from '../dialect-for';
import { authorizeRequest, followUpRequest, merchant, networkRequest, original, settleRequest, target, TEST_PAN, wireContext } from '../testing/factories';
import { formatKeyField } from './iso-fields';

const iso = dialectFor('ISO8583') as IsoDialect;

describe('ISO dialect: packing', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should pack a request once, giving the bytes of the message it built', () => {
    const packs = jest.spyOn(codec, 'pack');

    const { message, payload } = iso.packRequest('authorize', authorizeRequest({ minor: '1234' }), wireContext());

    expect(packs).toHaveBeenCalledTimes(1);
    expect(payload).toEqual(pack(iso.spec, message));
  });
});

describe('ISO dialect: authorization and sale', () => {
  it('should build a sale as 0200, processing code 000000, with the card in fields 2, 14, 23, 35 and 55', () => {
    const request = authorizeRequest({ minor: '1234' });
    const context = wireContext({ stan: '000042' });
    const message = iso.buildRequest('authorize', request, context);
    expect(message.mti).toBe('0200');
    expect(message.fields).toMatchObject({
      2: TEST_PAN,
      3: '000000',
      4: '000000001234',
      7: '0115103000',
      11: '000042',
      12: '103000',
      13: '0115',
      14: '2512',
      22: '071',
      23: '001',
      25: '00',
      35: '4761739001010119=25122011758928889',
      41: request.target.tid,
      42: 'MERCHANT000001 ', // ans15, padded as on the wire
      49: '504',
    });
    const icc = decodeTlv(message.fields[55] as Buffer).map((item) => item.tag);
    expect(icc).toContain('9F26');
    expect(icc).not.toContain('5A');
    expect(icc).not.toContain('57');
    expect(icc).not.toContain('5F20');
  });

  it('should build a pre-authorization as 0100', () => {
    expect(iso.buildRequest('authorize', authorizeRequest({ kind: 'PREAUTH' }), wireContext()).mti).toBe('0100');
  });

  it('should leave out field 23 when the card has no 5F34', () => {
    const request = authorizeRequest();
    const items = decodeTlv(Buffer.from(request.card.emvTlv, 'hex')).filter((item) => item.tag !== '5F34');
    request.card.emvTlv = Buffer.concat(
      items.map((item) => Buffer.concat([Buffer.from(item.tag, 'hex'), Buffer.from([item.value.length]), item.value])),
    ).toString('hex');
    expect(iso.buildRequest('authorize', request, wireContext()).fields[23]).toBeUndefined();
  });

  it('should refuse a context whose STAN is not six digits', () => {
    expect(() => iso.buildRequest('authorize', authorizeRequest(), wireContext({ stan: '42' }))).toThrow(HostProtocolError);
  });
});

describe('ISO dialect: follow-ups', () => {
  const terminal = target();
  const sale = { mti: '0200', context: wireContext({ stan: '000100', transmittedAt: '0115101010' }) };
  const reference = original(sale, { rrn: '501500000001', approvalCode: 'A1B2C3' });

  it.each([
    // By default (`host.voidAs: reversal`) a void is a reversal of the original, as 1987 terminals void.
    ['void', '0400', '000000'],
    ['refund', '0200', '200000'],
    ['capture', '0220', '000000'],
    ['reverse', '0400', '000000'],
  ] as const)('should build %s as %s with processing code %s, the original in fields 37, 38 and 90', (operation, mti, processingCode) => {
    const message = iso.buildRequest(operation, followUpRequest(terminal, reference, '500'), wireContext({ stan: '000101' }));
    expect(message.mti).toBe(mti);
    expect(message.fields).toMatchObject({ 3: processingCode, 4: '000000000500', 11: '000101', 37: '501500000001', 38: 'A1B2C3', 41: terminal.tid, 49: '504' });
    expect(message.fields[90]).toBe(`0200${'000100'}${'0115101010'}${'0'.repeat(22)}`); // MTI, STAN, transmission, two zero institution ids
    expect(message.fields[2]).toBeUndefined();
    expect(message.fields[55]).toBeUndefined();
  });

  it('should send a repeated reversal as 0401, still answered as 0410', () => {
    const message = iso.buildRequest('reverse', followUpRequest(terminal, original(sale)), wireContext({ repeat: true }));
    expect(message.mti).toBe('0401');
    expect(iso.matchKeyOfRequest(message).startsWith('0410|')).toBe(true);
    expect(message.fields[37]).toBeUndefined();
  });
});

describe('ISO dialect: merchant data (fields 18, 19, 32, 43)', () => {
  const terminal = target();
  const sale = { mti: '0200', context: wireContext() };

  it('should send MCC in 18, the numeric country in 19 and name, city, country in 43 (25 + 13 + 2)', () => {
    const message = iso.buildRequest('authorize', authorizeRequest({ target: terminal }), wireContext());
    expect(message.fields).toMatchObject({ 18: '5814', 19: '458', 43: `${'Kopi Corner Sdn Bhd'.padEnd(25)}${'Kuala Lumpur'.padEnd(13)}MY` });
    expect(message.fields[32]).toBeUndefined();
  });

  it.each(['void', 'refund', 'capture', 'reverse'] as const)('should send the merchant on %s too', (operation) => {
    const message = iso.buildRequest(operation, followUpRequest(terminal, original(sale)), wireContext());
    expect(message.fields).toMatchObject({ 18: '5814', 19: '458', 43: expect.stringMatching(/^Kopi Corner Sdn Bhd {6}Kuala Lumpur {1}MY$/) });
  });

  it("should name a payment facilitator's sub-merchant as <facilitator, 12>*<sub-merchant> in 43", () => {
    const request = authorizeRequest({ merchant: merchant({ name: 'PayFac Asia Holdings', subMerchantName: 'Warung Pak Ali Nasi Lemak' }) });
    expect(iso.buildRequest('authorize', request, wireContext()).fields[43]).toBe(`PayFac Asia*Warung Pak Al${'Kuala Lumpur'.padEnd(13)}MY`);
  });

  it('should send the acquiring institution id in 32 when the target has one', () => {
    const message = iso.buildRequest('authorize', authorizeRequest({ target: target({ acquirerId: '123456' }) }), wireContext());
    expect(message.fields[32]).toBe('123456');
  });

  it('should let an independent decoder (npm iso_8583) read 12, 13, 18, 19, 32 and 43 as the merchant has them', () => {
    const kathmandu = merchant({ timeZone: 'Asia/Kathmandu', name: 'Himal Momo', city: 'Kathmandu', country: 'NP', mcc: '5812' });
    const context = { ...wireContext(), transmittedAt: '0115181500', localTime: '000000', localDate: '0116' };
    const { payload } = iso.packRequest('refund', followUpRequest(target({ acquirerId: '60012345' }), original(sale), '500', '524', kathmandu), context);
    const theirs = orThrow(new Iso8583Js().getIsoJSON(payload, { lenHeader: false }));
    expect(theirs).toMatchObject({ 0: '0200', 7: '0115181500', 12: '000000', 13: '0116', 18: '5812', 19: '524', 32: '60012345', 43: `${'Himal Momo'.padEnd(25)}${'Kathmandu'.padEnd(13)}NP` });
  });

  it('should leave out 18 and 19 when the merchant has no MCC or country, 43 then blank where they would be', () => {
    const message = iso.buildRequest('authorize', authorizeRequest({ merchant: merchant({ mcc: null, country: null, city: null }) }), wireContext());
    expect(message.fields[18]).toBeUndefined();
    expect(message.fields[19]).toBeUndefined();
    expect(message.fields[43]).toBe(`${'Kopi Corner Sdn Bhd'.padEnd(25)}${' '.repeat(15)}`);
  });

  it('should give every merchant a 43 of 40 printable characters that every preset packs, with its country in 19', () => {
    const alpha2 = Object.keys(countries.getAlpha2Codes());
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme' }).filter((name) => name.trim() !== ''),
        fc.option(fc.string({ maxLength: 64, unit: 'grapheme' }), { nil: null }),
        fc.constantFrom(...alpha2),
        fc.option(fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme' }), { nil: undefined }),
        fc.constantFrom(...ISO_HOST_FORMATS),
        (name, city, country, subMerchantName, format) => {
          const dialect = dialectFor(format) as IsoDialect;
          const request = authorizeRequest({ merchant: merchant({ name, city, country, ...(subMerchantName === undefined ? {} : { subMerchantName }) }) });
          const message = dialect.buildRequest('authorize', request, wireContext());
          const field43 = message.fields[43] as string;
          expect(field43).toMatch(/^[\x20-\x7e]{38}[A-Z]{2}$/);
          expect(field43.slice(38)).toBe(country);
          expect(message.fields[19]).toBe(countryNumeric(country)!.padStart(3, '0'));
          if (subMerchantName !== undefined) expect(field43.slice(0, 25)).toContain('*');
          expect(unpack(dialect.spec, pack(dialect.spec, message)).fields[43]).toBe(field43);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ISO dialect: reconciliation and network management', () => {
  it('should put the batch number in field 60 and refunds as credits (74, 86), sales as debits (76, 88)', () => {
    const message = iso.buildRequest(
      'settle',
      settleRequest(target(), { saleCount: 3, saleMinor: '4500', refundCount: 1, refundMinor: '700' }, '000017'),
      wireContext(),
    );
    expect(message.mti).toBe('0500');
    expect(message.fields).toMatchObject({ 60: '000017', 74: '0000000001', 76: '0000000003', 86: '0000000000000700', 88: '0000000000004500', 49: '504' });
  });

  it.each([
    ['signon', '001'],
    ['keyexchange', '101'],
    ['echo', '301'],
  ] as const)('should build %s as 0800 with field 70 = %s', (operation, code) => {
    const message = iso.buildRequest(operation, networkRequest(target()), wireContext());
    expect({ mti: message.mti, 70: message.fields[70] }).toEqual({ mti: '0800', 70: code });
  });
});

describe('ISO dialect: answers', () => {
  const response = (fields: Record<number, string | Buffer>, mti = '0210'): Iso8583Message => ({ mti, fields: { 11: '000042', 41: 'TERM0001', ...fields } });

  it('should match a response on its MTI, STAN and TID, the TID pad spaces ignored', () => {
    const request = iso.buildRequest('authorize', authorizeRequest({ target: target({ tid: 'TERM01' }) }), wireContext({ stan: '000042' }));
    const wire = unpack(iso.spec, pack(iso.spec, response({ 39: '00', 41: 'TERM01  ' })));
    expect(iso.matchKeyOfResponse(wire)).toBe(iso.matchKeyOfRequest(request));
    expect(iso.matchKeyOfResponse(response({ 39: '00', 11: '000043', 41: 'TERM01' }))).not.toBe(iso.matchKeyOfRequest(request));
  });

  it('should read code, text, RRN and approval code', () => {
    expect(iso.parseResponse('authorize', response({ 39: '51', 37: '501500000002', 38: 'XYZ123' }))).toEqual({
      hostRespCode: '51',
      hostRespMessage: 'Insufficient funds',
      approved: false,
      rrn: '501500000002',
      approvalCode: 'XYZ123',
    });
  });

  it('should refuse an answer without field 39', () => {
    expect(() => iso.parseResponse('authorize', response({}))).toThrow(/no response code \(field 39\)/);
  });

  it('should read the working key and check value of an approved sign-on from field 48', () => {
    const key = Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex');
    const answer = iso.parseResponse('signon', response({ 39: '00', 70: '001', 48: formatKeyField(key, 'ab12cd') }, '0810'));
    expect(answer.workingKeyUnderZmk?.equals(key)).toBe(true);
    expect(answer.keyCheckValue).toBe('AB12CD');
  });

  it('should read an approved sign-on without a key as approved, a key exchange to follow', () => {
    const answer = iso.parseResponse('signon', response({ 39: '00', 70: '001' }, '0810'));
    expect(answer).toMatchObject({ approved: true, hostRespCode: '00', keyExchangeNeeded: true });
    expect(answer.workingKeyUnderZmk).toBeUndefined();
  });

  it('should read the host totals of an 0510', () => {
    const answer = iso.parseResponse(
      'settle',
      response({ 39: '95', 74: '0000000001', 76: '0000000002', 86: '0000000000000300', 88: '0000000000002000' }, '0510'),
    );
    expect(answer.hostTotals).toEqual({ saleCount: 2, saleMinor: '2000', refundCount: 1, refundMinor: '300' });
    expect(answer.hostRespMessage).toBe('Reconcile error');
  });
});

describe('dialectFor', () => {
  it.each(ISO_HOST_FORMATS)('should speak %s with the preset of that name, every message packing and unpacking', (format) => {
    const dialect = dialectFor(format) as IsoDialect;
    expect(dialect.kind).toBe('iso');
    expect(dialect.spec).toBe(PRESETS[format]);
    const terminal = target();
    const sale = { mti: '0200', context: wireContext() };
    const messages = [
      dialect.buildRequest('authorize', authorizeRequest({ target: terminal }), sale.context),
      dialect.buildRequest('refund', followUpRequest(terminal, original(sale, { rrn: '501500000001', approvalCode: 'A1B2C3' })), wireContext()),
      dialect.buildRequest('reverse', followUpRequest(terminal, original(sale)), wireContext({ repeat: true })),
      dialect.buildRequest('settle', settleRequest(terminal, { saleCount: 1, saleMinor: '1000', refundCount: 0, refundMinor: '0' }), wireContext()),
      dialect.buildRequest('signon', networkRequest(terminal), wireContext()),
    ];
    for (const message of messages) expect(unpack(dialect.spec, pack(dialect.spec, message))).toEqual(message);
  });

  it.each(['MPGS_AP', 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'] as const)('should give a JSON dialect for %s', (format) => {
    expect(dialectFor(format)).toMatchObject({ kind: 'json', format });
  });

  it('should refuse MOCK, which the connector answers in process', () => {
    expect(() => dialectFor('MOCK')).toThrow(HostProtocolError);
  });

  it('should refuse a name that is not a format', () => {
    expect(() => dialectFor('VISA_BASE1' as 'MOCK')).toThrow(/unknown host message format/);
  });
});
