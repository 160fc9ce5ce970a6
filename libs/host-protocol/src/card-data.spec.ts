import { decodeTlv, encodeTlv } from '@app/iso8583';
import { ICC_REQUEST_TAGS, readCardData } from './card-data';
import { HostProtocolError } from './dialect';
import { cardTlvHex, cardTlvItems, TEST_PAN } from './testing/factories';

const tagsOf = (icc: Buffer): string[] => decodeTlv(icc).map((item) => item.tag);

describe('readCardData', () => {
  it('should take the PAN from tag 5A, dropping its F pad', () => {
    const card = readCardData(cardTlvHex({ pan: '374245455400126', track2Hex: null }), 'ISO8583');
    expect(card.pan).toBe('374245455400126');
  });

  it('should take the PAN from tag 57 before the D separator when there is no 5A', () => {
    const card = readCardData(cardTlvHex({ pan: null, track2Hex: '5413330089020011D2512201000000000000F' }), 'ISO8583');
    expect(card.pan).toBe('5413330089020011');
  });

  it('should prefer tag 5A when both are present', () => {
    const card = readCardData(cardTlvHex({ pan: '4111111111111111' }), 'ISO8583');
    expect(card.pan).toBe('4111111111111111');
  });

  it('should write track 2 with = for the D separator and without the trailing F', () => {
    const card = readCardData(cardTlvHex(), 'ISO8583');
    expect(card.track2).toBe('4761739001010119=25122011758928889');
  });

  it('should take the expiry YYMM from 5F24 and the PAN sequence from 5F34 as three digits', () => {
    const card = readCardData(cardTlvHex(), 'ISO8583');
    expect({ expiry: card.expiry, panSequence: card.panSequence }).toEqual({ expiry: '2512', panSequence: '001' });
  });

  it('should fall back to the expiry in track 2 when 5F24 is absent', () => {
    const items = cardTlvItems({ track2Hex: '4761739001010119D27062011758928889F' }).filter((item) => item.tag !== '5F24');
    expect(readCardData(encodeTlv(items).toString('hex'), 'ISO8583').expiry).toBe('2706');
  });

  it('should keep only ICC request tags in field 55, never the PAN, track, name or expiry', () => {
    const card = readCardData(cardTlvHex(), 'ISO8583');
    const tags = tagsOf(card.iccData);
    expect(tags).toEqual(['5F34', '82', '84', '95', '9A', '9C', '5F2A', '9F02', '9F10', '9F1A', '9F26', '9F27', '9F36', '9F37']);
    for (const forbidden of ['5A', '57', '5F20', '56', '9F6B', '5F24']) expect(tags).not.toContain(forbidden);
    expect(card.iccData.toString('hex').toUpperCase()).not.toContain(TEST_PAN);
  });

  it('should read tags inside a template (70 / 77) and keep field 55 flat', () => {
    const inner = encodeTlv(cardTlvItems());
    const card = readCardData(encodeTlv([{ tag: '77', value: inner }]).toString('hex'), 'ISO8583');
    expect(card.pan).toBe(TEST_PAN);
    expect(tagsOf(card.iccData)).toContain('9F26');
    expect(tagsOf(card.iccData)).not.toContain('77');
  });

  it('should list 9F26 and 9F6E among the ICC tags and no card data tag', () => {
    expect(ICC_REQUEST_TAGS).toEqual(expect.arrayContaining(['9F26', '9F6E', '9F02', '95']));
    expect(ICC_REQUEST_TAGS).not.toEqual(expect.arrayContaining(['5A']));
  });

  it('should refuse EMV data without a PAN, naming the format', () => {
    expect(() => readCardData(cardTlvHex({ pan: null, track2Hex: null }), 'S2M_8583')).toThrow(
      new HostProtocolError('S2M_8583', 'card EMV data holds no PAN (neither tag 5A nor tag 57)'),
    );
  });

  it('should refuse data that is not BER-TLV without echoing it', () => {
    let caught: unknown;
    try {
      readCardData(`5A08${TEST_PAN}9F`, 'ISO8583');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HostProtocolError);
    expect((caught as Error).message).toMatch(/not BER-TLV/);
    expect((caught as Error).message).not.toContain(TEST_PAN);
  });

  it('should refuse a tag 57 that is not PAN, D, expiry', () => {
    expect(() => readCardData(cardTlvHex({ track2Hex: '4761739001010119' }), 'ISO8583')).toThrow(/tag 57/);
  });
});
