import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { ISO8583, Iso8583Message } from '@app/iso8583';
import fc from 'fast-check';
import { AcquirerEngine } from '../engine/acquirer-engine';
import { emptyStats } from '../engine/simulator-stats';
import { answerIsoRequest } from './iso-host';

/** What the connector now sends for follow-ups (issue 16, items 4 and 5), answered from hand-built 1987 messages. */
describe('simulator: reversal advices and voids of refunds', () => {
  function host() {
    const stats = emptyStats();
    const deps = { spec: ISO8583, engine: new AcquirerEngine(stats), stats, zmk: DEVELOPMENT_ZMK, issuedKeys: new Map(), cardAcceptors: new Map() };
    return { stats, answer: (message: Iso8583Message) => answerIsoRequest(message, deps) };
  }
  const TID = 'TERM0042';
  const message = (mti: string, stan: string, fields: Record<number, string>): Iso8583Message => ({
    mti,
    fields: { 7: '0115103000', 11: stan, 41: TID, ...fields },
  });
  const original = (mti: string, stan: string) => `${mti}${stan}0115103000${'0'.repeat(22)}`;

  it('should acknowledge a reversal advice (0420, repeated 0421) with 0430 00, counting it once per original', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), (stan) => {
        const { stats, answer } = host();
        const of = original('0220', String(stan).padStart(6, '0'));
        const first = answer(message('0420', '000900', { 3: '000000', 4: '000000000800', 90: of }));
        const repeat = answer(message('0421', '000900', { 3: '000000', 4: '000000000800', 90: of }));
        expect([first?.mti, first?.fields[39], repeat?.mti, repeat?.fields[39]]).toEqual(['0430', '00', '0430', '00']);
        expect([stats.reversalsCounted, stats.reversalRepeats]).toEqual([1, 1]);
      }),
    );
  });

  it('should void a refund sent as 0200 with processing code 22, against the refund it names', () => {
    const { answer } = host();
    expect(answer(message('0200', '000001', { 2: '4761739001010010', 3: '000000', 4: '000000002500' }))?.fields[39]).toBe('00');
    expect(answer(message('0200', '000002', { 3: '200000', 4: '000000001000', 90: original('0200', '000001') }))?.fields[39]).toBe('00');
    expect(answer(message('0200', '000003', { 3: '220000', 4: '000000001000', 90: original('0200', '000002') }))?.fields[39]).toBe('00');
    // The refund is voided: voiding it again is a follow-up on an original in the wrong state.
    expect(answer(message('0200', '000004', { 3: '220000', 4: '000000001000', 90: original('0200', '000002') }))?.fields[39]).toBe('12');
  });
});
