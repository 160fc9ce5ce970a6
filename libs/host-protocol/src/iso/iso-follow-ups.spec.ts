import { HOST_APPROVAL_CODE_PATTERN, HOST_ORIGINAL_KINDS, HOST_RRN_PATTERN, HostOriginalKindV1 } from '@app/contracts';
import { compileSpec, decodeTlv, encodeTlv, FOLLOW_UP_OPERATIONS, FollowUpOperation, isConstructedTag, Iso8583Message, pack, TlvItem, unpack } from '@app/iso8583';
import iso8583Json from '../../../iso8583/specs/iso8583.json';
import fc from 'fast-check';
import { FollowUpCard, followUpCardOf, ICC_REQUEST_TAGS, readCardData, REVERSAL_ICC_EXCLUDED_TAGS, reversalIccOf } from '../card-data';
import { authorizeRequest, followUpRequest, original, TEST_PAN, TEST_TRACK2_HEX, target, wireContext } from '../testing/factories';
import { IsoHostDialect } from './iso-dialect';

/** Follow-ups and reversals as 1987 hosts match them (issue 16, items 4 and 5). */

function dialectWith(host?: Record<string, unknown>): IsoHostDialect {
  return new IsoHostDialect('ISO8583', compileSpec(host === undefined ? iso8583Json : { ...iso8583Json, host }));
}

const terminal = target();
const AMOUNT = fc.bigInt({ min: 1n, max: 999_999_999_999n }).map(String);

/** The message that carried an original of `kind`, built by the dialect itself (a void: sent as a 0200, where it has a processing code of its own). */
function originalMessage(kind: HostOriginalKindV1, minor: string): Iso8583Message {
  const sale = original({ mti: '0200', context: wireContext() }, undefined, 'SALE');
  const refund = original({ mti: '0200', context: wireContext() }, undefined, 'REFUND');
  const asFinancial = dialectWith({ voidAs: '0200' });
  switch (kind) {
    case 'SALE':
    case 'PREAUTH':
      return asFinancial.buildRequest('authorize', authorizeRequest({ kind, minor, target: terminal }), wireContext());
    case 'CAPTURE':
      return asFinancial.buildRequest('capture', followUpRequest(terminal, original({ mti: '0100', context: wireContext() }), minor), wireContext());
    case 'REFUND':
      return asFinancial.buildRequest('refund', followUpRequest(terminal, sale, minor), wireContext());
    case 'VOID':
      return asFinancial.buildRequest('void', followUpRequest(terminal, sale, minor), wireContext());
    case 'VOID_REFUND':
      return asFinancial.buildRequest('void', followUpRequest(terminal, refund, minor), wireContext());
  }
}

describe('ISO dialect: reversals name what they reverse', () => {
  it('should give a reversal the processing code and POS condition of its original, whatever the original was', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOST_ORIGINAL_KINDS), AMOUNT, fc.boolean(), (kind, minor, repeat) => {
        const sent = originalMessage(kind, minor);
        const context = wireContext();
        const reference = original({ mti: sent.mti, context: { ...context, stan: String(sent.fields[11]) } }, undefined, kind);
        const reversal = dialectWith().buildRequest('reverse', followUpRequest(terminal, reference, minor), { ...context, repeat });
        expect(reversal.fields[3]).toBe(sent.fields[3]);
        expect(reversal.fields[25]).toBe(sent.fields[25]);
        // An advice (0220) is reversed by a reversal advice (0420); a repeat ends in 1.
        expect(reversal.mti).toBe(`04${sent.mti === '0220' ? '2' : '0'}${repeat ? '1' : '0'}`);
      }),
    );
  });

  it('should read an original without a kind (a caller older than issue 16) from its MTI', () => {
    const reverse = (mti: string): Iso8583Message => dialectWith().buildRequest('reverse', followUpRequest(terminal, original({ mti, context: wireContext() })), wireContext());
    expect(reverse('0200').fields).toMatchObject({ 3: '000000', 25: '00' });
    expect(reverse('0100').fields).toMatchObject({ 3: '000000', 25: '06' });
    expect(reverse('0220')).toMatchObject({ mti: '0420', fields: { 3: '000000', 25: '06' } });
  });
});

describe("ISO dialect: follow-ups send the host's own references back (review r16c M3)", () => {
  // Field 37 (an 12) and 38 (an 6) as hosts write them: padded on the right or the left, with spaces inside, or full.
  const AN = fc.constantFrom(...'ABCXYZabcxyz0123456789 '.split(''));
  const RRN_SENT = fc.array(AN, { minLength: 12, maxLength: 12 }).map((chars) => chars.join('')).filter((text) => text.trim() !== '');
  const APPROVAL_SENT = fc.array(AN, { minLength: 6, maxLength: 6 }).map((chars) => chars.join('')).filter((text) => text.trim() !== '');

  it('should read any 37/38 a host answers into references the contract takes, and send them back byte for byte', () => {
    const dialect = dialectWith();
    const spec = compileSpec(iso8583Json);
    fc.assert(
      fc.property(RRN_SENT, APPROVAL_SENT, fc.constantFrom<FollowUpOperation>('refund', 'capture', 'void'), (rrnSent, approvalSent, operation) => {
        const hostAnswer = unpack(spec, pack(spec, { mti: '0210', fields: { 11: '000042', 37: rrnSent, 38: approvalSent, 39: '00', 41: 'TERM0001' } }));
        const read = dialect.parseResponse('authorize', hostAnswer);
        // What the gateway keeps and names in a follow-up passes the contract's own patterns.
        expect(read.rrn).toMatch(HOST_RRN_PATTERN);
        expect(read.approvalCode).toMatch(HOST_APPROVAL_CODE_PATTERN);
        const kind = operation === 'capture' ? 'PREAUTH' : 'SALE';
        const reference = original({ mti: kind === 'PREAUTH' ? '0100' : '0200', context: wireContext() }, { rrn: read.rrn, approvalCode: read.approvalCode }, kind);
        const sent = unpack(spec, pack(spec, dialect.buildRequest(operation, followUpRequest(terminal, reference), wireContext())));
        expect({ 37: sent.fields[37], 38: sent.fields[38] }).toEqual({ 37: rrnSent, 38: approvalSent });
      }),
    );
  });
});

describe('ISO dialect: voids, pre-authorisations and completions', () => {
  it('should send a void as the reversal of its original by default, and as a 0200 with 02 (22 for a refund) when the host asks', () => {
    fc.assert(
      fc.property(fc.constantFrom<HostOriginalKindV1>('SALE', 'REFUND', 'CAPTURE'), AMOUNT, (kind, minor) => {
        const reference = original({ mti: kind === 'CAPTURE' ? '0220' : '0200', context: wireContext() }, undefined, kind);
        const byDefault = dialectWith().buildRequest('void', followUpRequest(terminal, reference, minor), wireContext());
        expect(byDefault.mti).toBe(kind === 'CAPTURE' ? '0420' : '0400');
        expect(byDefault.fields[3]).toBe(kind === 'REFUND' ? '200000' : '000000');
        const asFinancial = dialectWith({ voidAs: '0200' }).buildRequest('void', followUpRequest(terminal, reference, minor), wireContext());
        expect(asFinancial.mti).toBe('0200');
        expect(asFinancial.fields[3]).toBe(kind === 'REFUND' ? '220000' : '020000');
      }),
    );
  });

  it('should send a pre-authorisation and its completion with POS condition 06, a sale and a refund with 00', () => {
    const dialect = dialectWith();
    const preauth = original({ mti: '0100', context: wireContext() }, undefined, 'PREAUTH');
    expect(dialect.buildRequest('authorize', authorizeRequest({ kind: 'PREAUTH' }), wireContext()).fields[25]).toBe('06');
    expect(dialect.buildRequest('capture', followUpRequest(terminal, preauth), wireContext()).fields[25]).toBe('06');
    expect(dialect.buildRequest('authorize', authorizeRequest({ kind: 'SALE' }), wireContext()).fields[25]).toBe('00');
    expect(dialect.buildRequest('refund', followUpRequest(terminal, original({ mti: '0200', context: wireContext() })), wireContext()).fields[25]).toBe('00');
  });
});

describe("ISO dialect: the original's card data on follow-ups", () => {
  const sale = original({ mti: '0200', context: wireContext() }, { rrn: '501500000001', approvalCode: 'A1B2C3' }, 'SALE');

  const keptCard = fc.record({
    pan: fc.stringMatching(/^[0-9]{12,19}$/),
    expiry: fc.option(fc.stringMatching(/^[0-9]{2}(0[1-9]|1[0-2])$/), { nil: null }),
    panSequence: fc.option(fc.stringMatching(/^[0-9]{3}$/), { nil: null }),
  });
  const entryMode = fc.stringMatching(/^[0-9]{3}$/);

  it("should carry the kept card (2, 14, 23, 22 = the spec's follow-up entry mode) on exactly the follow-ups the spec names, never track 2 (35), nor chip data (55) from a card kept without it", () => {
    fc.assert(
      fc.property(
        fc.subarray([...FOLLOW_UP_OPERATIONS]),
        fc.constantFrom<FollowUpOperation>(...FOLLOW_UP_OPERATIONS),
        fc.constantFrom('reversal', '0200'),
        keptCard,
        entryMode,
        (withCard, operation, voidAs, card, mode) => {
          const context = { ...wireContext(), keptCard: card };
          const message = dialectWith({ followUpCardData: withCard, voidAs, followUpEntryMode: mode }).buildRequest(
            operation,
            followUpRequest(terminal, sale),
            context,
          );
          // A void sent as a reversal is that reversal on the wire: it follows what the spec says of reversals.
          const asReversal = operation === 'reverse' || (operation === 'void' && voidAs === 'reversal');
          const carries = withCard.includes(asReversal ? 'reverse' : operation);
          expect(message.fields[2]).toBe(carries ? card.pan : undefined);
          expect(message.fields[14]).toBe(carries && card.expiry !== null ? card.expiry : undefined);
          // A reversal says how its original (here a sale, read from the chip) was entered.
          expect(message.fields[22]).toBe(carries ? (asReversal ? '071' : mode) : undefined);
          expect(message.fields[23]).toBe(carries && card.panSequence !== null ? card.panSequence : undefined);
          expect(message.fields[35]).toBeUndefined();
          expect(message.fields[55]).toBeUndefined();
          // The references stay: the host still finds the original by 37, 38 and 90.
          expect(message.fields).toMatchObject({ 37: '501500000001', 38: 'A1B2C3' });
          expect(String(message.fields[90]).slice(0, 10)).toBe(`0200${sale.stan}`);
        },
      ),
    );
  });

  it('should send a reversal and its repeat as the same message but for the MTI: the kept card, entered as its original was, never 35, no 55 from a card kept without chip data (ISO 8583:1987 repeat rule)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOST_ORIGINAL_KINDS), keptCard, entryMode, AMOUNT, (kind, card, mode, minor) => {
        const dialect = dialectWith({ followUpEntryMode: mode });
        const sent = originalMessage(kind, minor);
        const context = { ...wireContext(), keptCard: card };
        const reference = original({ mti: sent.mti, context: { ...context, stan: String(sent.fields[11]) } }, undefined, kind);
        const first = dialect.packRequest('reverse', followUpRequest(terminal, reference, minor), context);
        const repeat = dialect.packRequest('reverse', followUpRequest(terminal, reference, minor), { ...context, repeat: true });
        expect(first.message.fields).toMatchObject({ 2: card.pan, 22: kind === 'SALE' || kind === 'PREAUTH' ? '071' : mode });
        expect(first.message.fields[35]).toBeUndefined();
        expect(first.message.fields[55]).toBeUndefined();
        // On the wire: the ASCII MTI's last digit 0 -> 1, every other byte the same.
        expect(repeat.message.mti).toBe(`${first.message.mti.slice(0, 3)}1`);
        expect(repeat.payload.subarray(4)).toEqual(first.payload.subarray(4));
        expect(repeat.message.fields).toEqual(first.message.fields);
      }),
    );
  });

  it('should send a void that goes out as a reversal and the repeats the connector owes for it as the same message but for the MTI', () => {
    fc.assert(
      fc.property(fc.constantFrom<HostOriginalKindV1>('SALE', 'PREAUTH', 'REFUND'), keptCard, entryMode, AMOUNT, fc.boolean(), (kind, card, mode, minor, cardOnVoid) => {
        // The format names its follow-ups with card data; the void is sent as a reversal, its repeats are built as one ('reverse').
        const followUpCardData = cardOnVoid ? ['void', 'refund', 'capture', 'reverse'] : ['refund', 'capture', 'reverse'];
        const dialect = dialectWith({ voidAs: 'reversal', followUpEntryMode: mode, followUpCardData });
        const sent = originalMessage(kind, minor);
        const context = { ...wireContext(), keptCard: card };
        const reference = original({ mti: sent.mti, context: { ...context, stan: String(sent.fields[11]) } }, undefined, kind);
        const voided = dialect.packRequest('void', followUpRequest(terminal, reference, minor), context);
        const repeat = dialect.packRequest('reverse', followUpRequest(terminal, reference, minor), { ...context, repeat: true });
        expect(voided.message.mti).toBe('0400');
        expect(voided.message.fields).toMatchObject({ 2: card.pan, 22: kind === 'SALE' || kind === 'PREAUTH' ? '071' : mode });
        expect(repeat.message.mti).toBe('0401');
        expect(repeat.payload.subarray(4)).toEqual(voided.payload.subarray(4));
      }),
    );
  });

  it('should send a follow-up without card data when the connector has none for its original', () => {
    const message = dialectWith().buildRequest('refund', followUpRequest(terminal, sale), wireContext());
    expect(message.fields[2]).toBeUndefined();
    expect(message.fields[35]).toBeUndefined();
  });
});

describe("ISO dialect: a chip reversal's field 55 (r16c M4, issue 16 item 4)", () => {
  const EXCLUDED = new Set(REVERSAL_ICC_EXCLUDED_TAGS);
  /** Tags the card's EMV data may hold: field 55's, the excluded ones, and tags neither list names. */
  const OTHER_TAGS = ['9F4C', 'DF01', '9F7D', '5F25', '9F08', '9F42'];
  const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((value) => Buffer.from(value));
  // 5A, 57 and 5F24 are read into fields 2, 35 and 14: generated as a card has them, not as noise.
  const noiseTag = fc.constantFrom(...ICC_REQUEST_TAGS, ...REVERSAL_ICC_EXCLUDED_TAGS.filter((tag) => !['5A', '57', '5F24'].includes(tag)), ...OTHER_TAGS);
  const item: fc.Arbitrary<TlvItem> = fc.record({ tag: noiseTag, value: bytes(1, 12) });
  /** A card's EMV data: PAN, maybe track 2 and expiry, and up to 20 other objects, some inside a 70 template. */
  const cardEmv = fc
    .tuple(fc.boolean(), fc.boolean(), fc.array(item, { maxLength: 20 }), fc.array(item, { maxLength: 6 }))
    .map(([withTrack2, withExpiry, loose, templated]) => {
      const items: TlvItem[] = [{ tag: '5A', value: Buffer.from(TEST_PAN, 'hex') }];
      if (withTrack2) items.push({ tag: '57', value: Buffer.from(`${TEST_TRACK2_HEX}`, 'hex') });
      if (withExpiry) items.push({ tag: '5F24', value: Buffer.from('291231', 'hex') });
      items.push(...loose);
      if (templated.length > 0) items.push({ tag: '70', value: encodeTlv(templated) });
      return encodeTlv(items).toString('hex').toUpperCase();
    });
  const tagsOf = (icc: Buffer): string[] => decodeTlv(icc).map((object) => object.tag);
  /** The primitive objects of a TLV, templates read in place. */
  const flat = (icc: Buffer): TlvItem[] =>
    decodeTlv(icc).flatMap((object) => (isConstructedTag(object.tag) ? flat(object.value) : [object]));

  /** The connector's way: the sale's card kept (sealed as JSON), then its reversal's 0400 and a 0401. */
  function saleAndReversal(kind: 'SALE' | 'PREAUTH', emv: string, host: Record<string, unknown>, operation: 'reverse' | 'void' = 'reverse') {
    const dialect = dialectWith(host);
    const saleContext = wireContext();
    const sale = dialect.packRequest('authorize', authorizeRequest({ kind, emvTlv: emv, target: terminal }), saleContext);
    const keptCard = JSON.parse(JSON.stringify(followUpCardOf(readCardData(emv, 'ISO8583'), dialect.spec.host.reversalIcc))) as FollowUpCard;
    const reference = original({ mti: sale.message.mti, context: saleContext }, undefined, kind);
    const context = { ...wireContext(), keptCard };
    const first = dialect.packRequest(operation, followUpRequest(terminal, reference), context);
    const repeat = dialect.packRequest('reverse', followUpRequest(terminal, reference), { ...context, repeat: true });
    return { sale: sale.message, first, repeat, keptCard };
  }

  it("should carry the original's field 55 less exactly the excluded tags on a chip reversal's 0400 and every 0401, byte-identical but for the MTI", () => {
    fc.assert(
      fc.property(fc.constantFrom<'SALE' | 'PREAUTH'>('SALE', 'PREAUTH'), cardEmv, fc.constantFrom<'reverse' | 'void'>('reverse', 'void'), (kind, emv, operation) => {
        const { sale, first, repeat } = saleAndReversal(kind, emv, {}, operation);
        const original55 = sale.fields[55] as Buffer | undefined;
        const reversal55 = first.message.fields[55] as Buffer | undefined;
        if (original55 === undefined) {
          expect(reversal55).toBeUndefined();
        } else {
          // Minus exactly the excluded tags: every other object of the original's 55, in its order.
          expect(reversal55).toBeDefined();
          expect(flat(reversal55 as Buffer)).toEqual(flat(original55).filter((object) => !EXCLUDED.has(object.tag)));
          // No excluded tag ever reaches an original's 55 either, so the reversal's is the original's.
          expect(reversal55).toEqual(original55);
        }
        // Never a track-equivalent or cardholder tag, never track 2.
        if (reversal55 !== undefined) expect(tagsOf(reversal55).filter((tag) => EXCLUDED.has(tag))).toEqual([]);
        expect(first.message.fields[35]).toBeUndefined();
        // The repeat: the same bytes after the MTI.
        expect(repeat.message.mti).toBe('0401');
        expect(first.message.mti).toBe('0400');
        expect(repeat.payload.subarray(4)).toEqual(first.payload.subarray(4));
      }),
    );
  });

  it('should send no field 55 on any reversal when the spec turns reversalIcc off, and keep none', () => {
    fc.assert(
      fc.property(fc.constantFrom<'SALE' | 'PREAUTH'>('SALE', 'PREAUTH'), cardEmv, (kind, emv) => {
        const { first, repeat, keptCard } = saleAndReversal(kind, emv, { reversalIcc: false });
        expect(keptCard.reversalIcc).toBeUndefined();
        expect(first.message.fields[55]).toBeUndefined();
        expect(repeat.message.fields[55]).toBeUndefined();
        expect(repeat.payload.subarray(4)).toEqual(first.payload.subarray(4));
      }),
    );
    // Off in the spec, on the kept card (kept under an earlier spec): still none.
    const keptCard = { pan: TEST_PAN, expiry: null, panSequence: null, reversalIcc: '9F2608' + '11'.repeat(8) };
    const reference = original({ mti: '0200', context: wireContext() }, undefined, 'SALE');
    expect(dialectWith({ reversalIcc: false }).buildRequest('reverse', followUpRequest(terminal, reference), { ...wireContext(), keptCard }).fields[55]).toBeUndefined();
  });

  it("should never give a reversal chip data that holds an excluded tag, whatever the kept card holds, nor a non-chip original's reversal any", () => {
    const anyTlv = fc.array(fc.record({ tag: fc.constantFrom(...REVERSAL_ICC_EXCLUDED_TAGS, ...ICC_REQUEST_TAGS, ...OTHER_TAGS), value: bytes(1, 12) }), { maxLength: 12 });
    fc.assert(
      fc.property(fc.constantFrom(...HOST_ORIGINAL_KINDS), anyTlv, fc.boolean(), (kind, items, templated) => {
        const raw = encodeTlv(templated ? [{ tag: '70', value: encodeTlv(items) }] : items).toString('hex');
        const keptCard: FollowUpCard = { pan: TEST_PAN, expiry: null, panSequence: null, reversalIcc: raw };
        const reference = original({ mti: kind === 'PREAUTH' ? '0100' : kind === 'CAPTURE' ? '0220' : '0200', context: wireContext() }, undefined, kind);
        const message = dialectWith().buildRequest('reverse', followUpRequest(terminal, reference), { ...wireContext(), keptCard });
        const kept = items.filter((object) => !EXCLUDED.has(object.tag));
        if ((kind === 'SALE' || kind === 'PREAUTH') && kept.length > 0) {
          expect(flat(message.fields[55] as Buffer)).toEqual(kept);
        } else {
          expect(message.fields[55]).toBeUndefined();
        }
        // The reduction itself: the objects less exactly the excluded tags, in order.
        expect(reversalIccOf(raw)).toBe(kept.length === 0 ? undefined : encodeTlv(kept).toString('hex').toUpperCase());
      }),
    );
  });

  it('should send no field 55 on the other follow-ups (refund, capture, a void sent as a 0200, a batch upload)', () => {
    const keptCard = { pan: TEST_PAN, expiry: null, panSequence: null, reversalIcc: '9F2608' + '11'.repeat(8) };
    const sale = original({ mti: '0200', context: wireContext() }, { rrn: '501500000001', approvalCode: 'A1B2C3' }, 'SALE');
    for (const operation of ['refund', 'capture'] as const) {
      expect(dialectWith().buildRequest(operation, followUpRequest(terminal, sale), { ...wireContext(), keptCard }).fields[55]).toBeUndefined();
    }
    expect(dialectWith({ voidAs: '0200' }).buildRequest('void', followUpRequest(terminal, sale), { ...wireContext(), keptCard }).fields[55]).toBeUndefined();
    expect(dialectWith().buildRequest('void', followUpRequest(terminal, sale), { ...wireContext(), keptCard }).fields[55]).toEqual(Buffer.from(keptCard.reversalIcc, 'hex'));
  });
});
