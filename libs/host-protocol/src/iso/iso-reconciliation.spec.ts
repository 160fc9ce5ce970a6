import { HostBatchTransactionV1 } from '@app/contracts';
import { compileSpec, DEFAULT_HOST_RULES, ISO8583, Iso8583Message, pack, S2M_8583, unpack } from '@app/iso8583';
import iso8583Json from '../../../iso8583/specs/iso8583.json';
import fc from 'fast-check';
import { HostBatchUploadRequest } from '../dialect';
import { settleRequest, target, wireContext } from '../testing/factories';
import { IsoHostDialect } from './iso-dialect';

/** Reconciliation (0500) in the layouts a spec's `host` section chooses, its answer, and the batch upload (0320). */

function dialectWith(host?: Record<string, unknown>): IsoHostDialect {
  return new IsoHostDialect('ISO8583', compileSpec(host === undefined ? iso8583Json : { ...iso8583Json, host }));
}

/** Up to 10 digits, so the sum of a batch of 40 fits field 63's 12. */
const AMOUNT = fc.bigInt({ min: 0n, max: 9_999_999_999n });
const TRANSACTION = fc.record({
  kind: fc.constantFrom<HostBatchTransactionV1['kind']>('SALE', 'CAPTURE', 'REFUND'),
  amount: AMOUNT,
  stan: fc.stringMatching(/^[0-9]{6}$/),
  transmittedAt: fc.stringMatching(/^[0-9]{10}$/),
});
/** A batch of up to 40 transactions; its totals are what a terminal sums of them. */
const BATCH = fc.array(TRANSACTION, { maxLength: 40 });

function totalsOf(batch: ReadonlyArray<{ kind: string; amount: bigint }>) {
  const refunds = batch.filter((t) => t.kind === 'REFUND');
  const sales = batch.filter((t) => t.kind !== 'REFUND');
  const sum = (items: ReadonlyArray<{ amount: bigint }>) => items.reduce((total, t) => total + t.amount, 0n);
  return { saleCount: sales.length, saleMinor: sum(sales).toString(), refundCount: refunds.length, refundMinor: sum(refunds).toString() };
}

/** The message after a trip over the wire in the dialect's spec. */
function onWire(dialect: IsoHostDialect, message: Iso8583Message): Iso8583Message {
  return unpack(dialect.spec, pack(dialect.spec, message));
}

describe('spec host section: reconciliation', () => {
  it('should default to terminal-style reconciliation, totals in 74–89, out of balance 95, with batch upload', () => {
    expect(DEFAULT_HOST_RULES).toMatchObject({ reconciliationLayout: 'terminal', reconciliationTotals: 'fields74to89', outOfBalanceCode: '95', batchUpload: true });
    expect(compileSpec({ ...iso8583Json, host: { approvalCodes: ['00'] } }).host).toMatchObject({ reconciliationLayout: 'terminal', batchUpload: true });
  });

  it.each([
    [{ reconciliationLayout: 'merchant' }, /reconciliationLayout/],
    [{ reconciliationTotals: 'field64' }, /reconciliationTotals/],
    [{ reconciliationLayout: 'acquirer', reconciliationTotals: 'field63' }, /fields74to89/],
    [{ outOfBalanceCode: '00' }, /outOfBalanceCode/],
    [{ outOfBalanceCode: '950' }, /outOfBalanceCode/],
    [{ batchUpload: 'yes' }, /batchUpload/],
  ])('should refuse the host section %j', (host, message) => {
    expect(() => dialectWith(host)).toThrow(message);
  });

  it('should refuse a layout whose fields the spec lacks', () => {
    const fields: Record<string, unknown> = { ...iso8583Json.fields };
    delete fields['97'];
    expect(() => compileSpec({ ...iso8583Json, fields, host: { reconciliationLayout: 'acquirer' } })).toThrow(/needs field 97/);
  });
});

describe('ISO dialect: reconciliation layouts', () => {
  const layouts = [
    ['terminal, 74–89 (default)', undefined],
    ['terminal, field 63', { reconciliationTotals: 'field63' }],
    ['acquirer', { reconciliationLayout: 'acquirer' }],
  ] as const;

  it.each(layouts)('should carry the sums of any batch in the %s layout, and read the same totals back from an answer', (_name, host) => {
    const dialect = dialectWith(host);
    fc.assert(
      fc.property(BATCH, fc.stringMatching(/^[0-9]{6}$/), (batch, batchNo) => {
        const totals = totalsOf(batch);
        const context = wireContext();
        const sent = onWire(dialect, dialect.buildRequest('settle', settleRequest(target(), totals, batchNo), context));
        expect(sent.mti).toBe('0500');
        expect(sent.fields[60]).toBe(batchNo);
        const answer = dialect.parseResponse('settle', { mti: '0510', fields: { ...sent.fields, 39: '00' } });
        expect(answer.hostTotals).toEqual(totals);
        const amount = (number: number) => BigInt(String(sent.fields[number]));
        if (host === undefined || 'reconciliationLayout' in host) {
          expect([Number(sent.fields[76]), amount(88), Number(sent.fields[74]), amount(86)]).toEqual([
            totals.saleCount,
            BigInt(totals.saleMinor),
            totals.refundCount,
            BigInt(totals.refundMinor),
          ]);
        } else {
          expect(sent.fields[63]).toBe(
            `${String(totals.saleCount).padStart(3, '0')}${totals.saleMinor.padStart(12, '0')}${String(totals.refundCount).padStart(3, '0')}${totals.refundMinor.padStart(12, '0')}`,
          );
          expect(sent.fields[74]).toBeUndefined();
        }
        if (host !== undefined && 'reconciliationLayout' in host) {
          const net = BigInt(totals.saleMinor) - BigInt(totals.refundMinor);
          expect(sent.fields).toMatchObject({ 15: context.localDate, 50: '504' });
          expect(sent.fields[3]).toBeUndefined();
          expect(sent.fields[49]).toBeUndefined();
          expect(sent.fields[97]).toBe(`${net >= 0n ? 'C' : 'D'}${(net >= 0n ? net : -net).toString().padStart(16, '0')}`);
        } else {
          expect(sent.fields).toMatchObject({ 3: '920000', 49: '504' });
          expect(sent.fields[50]).toBeUndefined();
        }
      }),
      { numRuns: 100 },
    );
  });

  it('should close a batch upload with processing code 960000 in either layout', () => {
    const request = settleRequest(target(), { saleCount: 1, saleMinor: '1000', refundCount: 0, refundMinor: '0' });
    expect(dialectWith().buildRequest('settleclose', request, wireContext())).toMatchObject({ mti: '0500', fields: { 3: '960000' } });
    expect(dialectWith({ reconciliationLayout: 'acquirer' }).buildRequest('settleclose', request, wireContext())).toMatchObject({ mti: '0500', fields: { 3: '960000', 50: '504' } });
  });

  it('should refuse field 63 totals that do not fit it', () => {
    const request = settleRequest(target(), { saleCount: 1000, saleMinor: '1000', refundCount: 0, refundMinor: '0' });
    expect(() => dialectWith({ reconciliationTotals: 'field63' }).buildRequest('settle', request, wireContext())).toThrow(/field 63/);
  });

  it('should read the answer fully: code, totals, settlement date, and whether it is out of balance by the format', () => {
    const dialect = dialectWith({ outOfBalanceCode: '96' });
    const answer = dialect.parseResponse('settle', { mti: '0510', fields: { 11: '000001', 41: 'TERM0001', 39: '96', 15: '0704' } });
    expect(answer).toMatchObject({ approved: false, outOfBalance: true, batchUpload: true, settlementDate: '0704' });
    expect(ISO8583.host.outOfBalanceCode).toBe('95');
    expect(dialectWith({ batchUpload: false }).parseResponse('settle', { mti: '0510', fields: { 39: '95' } })).toMatchObject({ outOfBalance: true, batchUpload: false });
    expect(dialectWith().parseResponse('settle', { mti: '0510', fields: { 39: '00', 15: '1399' } }).settlementDate).toBeUndefined();
  });
});

describe('ISO dialect: batch upload (0320)', () => {
  it('should send each transaction of any batch with its processing code, amount and original STAN, in every preset', () => {
    for (const spec of [ISO8583, S2M_8583]) {
      const dialect = new IsoHostDialect('ISO8583', spec);
      fc.assert(
        fc.property(TRANSACTION, fc.stringMatching(/^[0-9]{6}$/), (transaction, batchNo) => {
          const request: HostBatchUploadRequest = {
            ...settleRequest(target(), totalsOf([transaction]), batchNo),
            transaction: {
              kind: transaction.kind,
              amountMinor: transaction.amount.toString(),
              original: { mti: '0200', stan: transaction.stan, transmittedAt: transaction.transmittedAt, rrn: '000000123456', approvalCode: 'A1B2C3' },
            },
          };
          const context = wireContext();
          const sent = onWire(dialect, dialect.buildRequest('batchupload', request, context));
          expect(sent.mti).toBe('0320');
          expect(sent.fields).toMatchObject({
            3: transaction.kind === 'REFUND' ? '200000' : '000000',
            4: transaction.amount.toString().padStart(12, '0'),
            11: context.stan,
            37: '000000123456',
            38: 'A1B2C3',
            60: batchNo,
            90: `0200${transaction.stan}${transaction.transmittedAt}${'0'.repeat(22)}`,
          });
          expect(dialect.matchKeyOfRequest(sent)).toBe(dialect.matchKeyOfResponse({ mti: '0330', fields: { 11: context.stan, 41: sent.fields[41] } }));
        }),
        { numRuns: 100 },
      );
    }
  });

  it('should carry the transaction\'s kept card (2, 14, 23, its entry mode) only for a format naming batchupload in followUpCardData, never 35 or 55', () => {
    const keptCard = fc.record({
      pan: fc.stringMatching(/^[0-9]{12,19}$/),
      expiry: fc.option(fc.stringMatching(/^[0-9]{2}(0[1-9]|1[0-2])$/), { nil: null }),
      panSequence: fc.option(fc.stringMatching(/^[0-9]{3}$/), { nil: null }),
    });
    fc.assert(
      fc.property(TRANSACTION, keptCard, fc.boolean(), (transaction, card, named) => {
        const dialect = dialectWith({ followUpCardData: named ? ['refund', 'batchupload'] : ['refund'] });
        const request: HostBatchUploadRequest = {
          ...settleRequest(target(), totalsOf([transaction]), '000001'),
          transaction: {
            kind: transaction.kind,
            amountMinor: transaction.amount.toString(),
            original: { mti: '0200', stan: transaction.stan, transmittedAt: transaction.transmittedAt, rrn: null, approvalCode: null },
          },
        };
        const sent = onWire(dialect, dialect.buildRequest('batchupload', request, { ...wireContext(), keptCard: card }));
        expect(sent.fields[2]).toBe(named ? card.pan : undefined);
        expect(sent.fields[14]).toBe(named && card.expiry !== null ? card.expiry : undefined);
        expect(sent.fields[23]).toBe(named && card.panSequence !== null ? card.panSequence : undefined);
        expect(sent.fields[22]).toBe(named ? (transaction.kind === 'SALE' ? '071' : '010') : undefined);
        expect([sent.fields[35], sent.fields[55]]).toEqual([undefined, undefined]);
      }),
      { numRuns: 100 },
    );
    // The default names the four follow-ups only: an 0320 carries no card.
    expect(DEFAULT_HOST_RULES.followUpCardData).not.toContain('batchupload');
  });
});
