import { HostAmountV1 } from '@app/contracts';
import { dialectFor, HostAnswer, IsoHostDialect, JsonDialect } from '@app/host-protocol';
import { compileSpec, pack, unpack } from '@app/iso8583';
import fc from 'fast-check';
import iso8583Json from '../../../../libs/iso8583/specs/iso8583.json';
import { approvalOf, bookedAmountOf } from './approval-of';

/**
 * What the platform shows of an approval (docs/decisions.md, "An approval is of what was asked, or
 * it is reversed"): the amount asked (a full approval), the amount the host named (a partial
 * approval by the format's partial code, less and in the currency asked), or nothing (reversed as
 * UNUSABLE_APPROVAL). Never an amount the host did not approve.
 */

const ASKED: HostAmountV1 = { minor: '610', currency: '458' };

/** What the caller is shown of an approval: the amount taken, or null (reversed, nothing taken). */
function shown(requested: HostAmountV1, answer: HostAnswer): HostAmountV1 | null {
  const approval = approvalOf(requested, answer);
  return approval.kind === 'full' ? requested : approval.kind === 'partial' ? approval.amount : null;
}

describe('an approval is of what was asked, or it is reversed', () => {
  describe('ISO 8583 (answers packed and read as bytes)', () => {
    const spec = compileSpec(iso8583Json);
    const dialect = new IsoHostDialect('ISO8583', spec);
    const code = fc.constantFrom('00', '08', '10', '11', '16', '05', '51');
    const amount = fc.option(fc.oneof(fc.constant(610n), fc.bigInt({ min: 0n, max: 999_999_999_999n })), { nil: undefined });
    const currency = fc.option(fc.constantFrom('458', '840', '978'), { nil: undefined });

    it('should never show an amount or currency the answer did not approve, for any (code, field 4, field 49)', () => {
      fc.assert(
        fc.property(code, amount, currency, fc.constantFrom('authorize', 'capture', 'refund') as fc.Arbitrary<'authorize' | 'capture' | 'refund'>, (respCode, minor, numeric, operation) => {
          const fields: Record<number, string> = { 11: '000042', 37: '612345678901', 38: 'APR123', 39: respCode, 41: 'TID00001' };
          if (minor !== undefined) fields[4] = minor.toString().padStart(12, '0');
          if (numeric !== undefined) fields[49] = numeric;
          const mti = operation === 'capture' ? '0230' : '0210';
          const answer = dialect.parseResponse(operation, unpack(spec, pack(spec, { mti, fields })));
          if (!answer.approved) return;

          const taken = shown(ASKED, answer);

          const sameCurrency = numeric === undefined || numeric === ASKED.currency;
          if (taken === null) {
            // Reversed: only an approval naming another amount or currency, or a partial code naming none usable.
            expect(!sameCurrency || minor !== 610n || (respCode === '10' && minor === undefined)).toBe(true);
            // The reversal undoes what the host named; a partial code naming no amount, or 0, booked nothing to name: the amount asked.
            const unnamed = minor === 0n || (respCode === '10' && minor === undefined);
            expect(bookedAmountOf(ASKED, answer)).toEqual(unnamed ? ASKED : { minor: minor === undefined ? ASKED.minor : minor.toString(), currency: numeric ?? ASKED.currency });
            return;
          }
          expect(taken.currency).toBe(ASKED.currency);
          expect(sameCurrency).toBe(true);
          if (taken.minor === ASKED.minor) {
            // Full: the answer names the amount asked, or none (10 naming none is reversed above).
            expect(minor === undefined || minor === 610n).toBe(true);
          } else {
            // Partial: only by the partial code, for the smaller, non-zero amount field 4 names.
            expect(respCode).toBe('10');
            expect(taken.minor).toBe(minor?.toString());
            expect(BigInt(taken.minor) > 0n && BigInt(taken.minor) < 610n).toBe(true);
          }
        }),
        { numRuns: 500 },
      );
    });

    it.each([
      ['00 with 4 = 500 answering 6.10', { 4: '000000000500' }, 'approved (00, not a partial approval) 500, not the 610 asked', { minor: '500', currency: '458' }],
      ['00 with 49 = 840 answering MYR', { 4: '000000000610', 49: '840' }, 'approved (00) 610 in currency 840, not the 458 asked', { minor: '610', currency: '840' }],
      ['00 with 49 = 840 and no 4', { 49: '840' }, 'approved (00) 610 in currency 840, not the 458 asked', { minor: '610', currency: '840' }],
    ])('should reverse %s, for what the host named', (_case, named, reason, booked) => {
      const answer = dialect.parseResponse('authorize', unpack(spec, pack(spec, { mti: '0210', fields: { 11: '000042', 39: '00', 41: 'TID00001', ...named } })));

      expect(approvalOf(ASKED, answer)).toEqual({ kind: 'unusable', reason });
      expect(bookedAmountOf(ASKED, answer)).toEqual(booked);
    });

    it('should show an approval without 4 and 49, or naming what was asked, as a full approval', () => {
      const nameds: Array<Record<number, string>> = [{}, { 4: '000000000610' }, { 49: '458' }, { 4: '000000000610', 49: '458' }];
      for (const named of nameds) {
        const answer = dialect.parseResponse('authorize', { mti: '0210', fields: { 11: '000042', 39: '00', 41: 'TID00001', ...named } });
        expect(approvalOf(ASKED, answer)).toEqual({ kind: 'full' });
      }
    });
  });

  describe('JSON formats', () => {
    type Format = 'MPGS_AP' | 'POMELO_JSON' | 'EZ_AIO' | 'EZ_WALLET';
    const ALPHA: Record<string, string> = { '458': 'MYR', '840': 'USD', '504': 'MAD' };
    /** An approving answer naming `minor` in `numeric` where each format names an approved amount; `partial`: by the format's partial word or code. */
    const approvalIn = (format: Format, partial: boolean, minor: number, numeric: string): Record<string, unknown> => {
      const decimal = (minor / 100).toFixed(2);
      const code = partial ? '10' : '00';
      switch (format) {
        case 'MPGS_AP':
          return { result: 'SUCCESS', response: { gatewayCode: 'APPROVED', acquirerCode: code }, transaction: { id: 't', amount: decimal, currency: ALPHA[numeric] } };
        case 'POMELO_JSON':
          return { transaction_id: 't', status: 'APPROVED', status_detail: 'X', response_code: code, message: 'm', approved_amount: minor, currency: ALPHA[numeric] };
        case 'EZ_AIO':
          return { txnRef: 't', respCode: code, respMessage: 'm', txnStatus: 'APPROVED', currencyCode: numeric, approvedAmount: decimal };
        case 'EZ_WALLET':
          return { id: 't', state: 'SUCCEEDED', ...(partial ? { reason: 'PARTIALLY_APPROVED' } : {}), approvedAmount: { value: minor, currency: numeric } };
      }
    };

    it('should never show an amount or currency a JSON approval did not approve', () => {
      fc.assert(
        fc.property(
          fc.constantFrom<Format>('MPGS_AP', 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'),
          fc.boolean(),
          fc.oneof(fc.constant(610), fc.integer({ min: 0, max: 99_999 })),
          fc.constantFrom('458', '840', '504'),
          (format, partial, minor, numeric) => {
            const answer = (dialectFor(format) as JsonDialect).parseHttpResponse('authorize', 200, approvalIn(format, partial, minor, numeric));
            expect(answer.approved).toBe(true);

            const taken = shown(ASKED, answer);

            if (numeric !== ASKED.currency || (minor !== 610 && (!partial || minor === 0 || minor > 610))) expect(taken).toBeNull();
            else expect(taken).toEqual(partial ? { minor: String(minor), currency: ASKED.currency } : ASKED);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
