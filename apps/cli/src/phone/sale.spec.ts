import { minorToDecimal } from '@app/contracts';
import { readCardData, TEST_CARDS } from '@app/host-protocol';
import { decodeTlv } from '@app/iso8583';
import fc from 'fast-check';
import { UsageError } from '../args';
import { StoredDevice } from './device-file';
import { amountOf, saleRequest, SaleOptions } from './sale';

const NOW = new Date('2026-05-04T09:30:00Z');
const KEY = 'a5f1c3d2-2f43-4c8e-9d53-54c0e0a1b2c3';

/** A device as `device activate` keeps it: a Malaysian terminal given the Mastercard and Visa AIDs. */
function device(overrides: Partial<StoredDevice> = {}): StoredDevice {
  return {
    baseUrl: 'http://127.0.0.1:3000',
    deviceId: 'SDK0123456789ABCDEF0123',
    namespace: 'demo',
    profileId: 'prof_AAAAAAAAAAAAAAAA',
    deviceToken: 'device.token.jwt',
    emvParams: { txnCurrencyCode: '0458', terminalCountryCode: '0458', terminalType: '22' },
    emvAID: [
      { aid: 'A0000000041010', paymentMethod: '02' },
      { aid: 'A0000000031010', paymentMethod: '01' },
    ],
    activatedAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

const request = (options: Partial<SaleOptions>, stored = device()) =>
  saleRequest(stored, { amount: '12.50', auth: false, ...options }, { now: NOW, idempotencyKey: KEY });

/** The EMV tags of a request's emvData, hex values. */
function emvTags(emvData: string): Record<string, string> {
  return Object.fromEntries(decodeTlv(Buffer.from(emvData, 'hex')).map((item) => [item.tag, item.value.toString('hex').toUpperCase()]));
}

describe('saleRequest', () => {
  it("should post to the device's namespace under its token with the Idempotency-Key, in the device's currency and first scheme", () => {
    const sale = request({});

    expect(sale.url).toBe('http://127.0.0.1:3000/demo/api/v1/transaction');
    expect(sale.headers).toEqual({ authorization: 'Bearer device.token.jwt', 'idempotency-key': KEY });
    expect(sale.body).toEqual({
      profileId: 'prof_AAAAAAAAAAAAAAAA',
      tranType: 'SALE',
      amount: { value: '12.50', currency: 'MYR' },
      emvData: expect.stringMatching(/^[0-9A-F]+$/),
    });
    expect(sale.card).toBe('mastercard');
    expect(readCardData(sale.body.emvData, 'ISO8583').pan).toBe(TEST_CARDS.mastercard.pan);
    expect(emvTags(sale.body.emvData)).toMatchObject({ '9F02': '000000001250', '5F2A': '0458', '9F1A': '0458', '9A': '260504', '4F': 'A0000000041010' });
  });

  it('should ask an AUTH with --auth, tap the card asked for and carry the POS reference', () => {
    const sale = request({ auth: true, card: 'AMEX', posReference: 'till-1/0042' });

    expect(sale.body).toMatchObject({ tranType: 'AUTH', posReference: 'till-1/0042' });
    expect(emvTags(sale.body.emvData)['4F']).toBe(TEST_CARDS.amex.aid);
  });

  it('should sign the amount in the currency asked for, with its exponent, and the country of the terminal', () => {
    const yen = request({ amount: '1250', currency: 'jpy' });
    const dinar = request({ amount: '3.5', currency: 'KWD' });

    expect(yen.body.amount).toEqual({ value: '1250', currency: 'JPY' });
    expect(emvTags(yen.body.emvData)).toMatchObject({ '9F02': '000000001250', '5F2A': '0392', '9F1A': '0458' });
    expect(dinar.body.amount).toEqual({ value: '3.500', currency: 'KWD' });
    expect(emvTags(dinar.body.emvData)).toMatchObject({ '9F02': '000000003500', '5F2A': '0414' });
  });

  it('should take the country a national currency names when the terminal has none, and Visa when the device was given no AID', () => {
    const sale = request({ currency: 'USD' }, device({ emvParams: {}, emvAID: [] }));

    expect(emvTags(sale.body.emvData)).toMatchObject({ '5F2A': '0840', '9F1A': '0840', '4F': TEST_CARDS.visa.aid });
  });

  it.each<[string, Partial<SaleOptions>, Partial<StoredDevice>, RegExp]>([
    ['an amount with more decimals than the currency has', { amount: '12.505' }, {}, /--amount must be .* at most 2 decimals in MYR, such as 12\.50/],
    ['decimals in a currency without minor units', { amount: '12.50', currency: 'JPY' }, {}, /at most 0 decimals in JPY, such as 1250/],
    ['a zero amount', { amount: '0.00' }, {}, /--amount must be more than 0/],
    ['a negative amount', { amount: '-5' }, {}, /--amount must be a decimal amount/],
    ['more than 12 digits', { amount: '12345678901.00' }, {}, /at most 12 digits/],
    ['a currency that is no ISO 4217 code', { currency: 'RM' }, {}, /--currency must be an ISO 4217 currency code/],
    ['no currency when the activation named none', {}, { emvParams: {} }, /--currency is required/],
    ['a card of no known scheme', { card: 'diners' }, {}, /--card must be one of visa, mastercard, unionpay, amex, jcb, discover/],
    ['an empty POS reference', { posReference: '' }, {}, /--pos-reference/],
    ['a device without a gateway profile', {}, { profileId: null }, /no gateway profile/],
    ['a supranational currency and no terminal country', { currency: 'EUR' }, { emvParams: {} }, /no terminal country/],
  ])('should refuse %s as a usage error', (_what, options, stored, message) => {
    expect(() => request(options, device(stored))).toThrow(UsageError);
    expect(() => request(options, device(stored))).toThrow(message);
  });
});

describe('amountOf', () => {
  const currencies = fc.constantFrom(['MYR', 2] as const, ['JPY', 0] as const, ['KWD', 3] as const);

  it('should read every amount as the gateway writes it, with or without trailing zeros, to the same minor units', () => {
    fc.assert(
      fc.property(currencies, fc.bigInt({ min: 1n, max: 999_999_999_999n }), ([currency, exponent], minor) => {
        const written = minorToDecimal(minor, exponent);
        const trimmed = exponent > 0 ? written.replace(/0+$/, '').replace(/\.$/, '') : written;

        expect(amountOf(written, currency)).toEqual({ minor: minor.toString(), value: written });
        expect(amountOf(trimmed, currency)).toEqual({ minor: minor.toString(), value: written });
      }),
    );
  });

  it('should refuse anything that is not a positive decimal amount', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 16 }).filter((text) => !/^[0-9]+(\.[0-9]{1,2})?$/.test(text)),
        (text) => {
          expect(() => amountOf(text, 'MYR')).toThrow(UsageError);
        },
      ),
    );
  });
});
