import fc from 'fast-check';
import { difference } from '../settlement.service';
import { pageShape } from './settlement.dto';

describe('settlement list and totals', () => {
  it('should count pages so that every batch is on one and none is empty', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 1000 }), (total, size) => {
        const { pages } = pageShape(total, size);
        expect(pages * size >= total && (pages === 0 || (pages - 1) * size < total)).toBe(true);
      }),
    );
    expect([pageShape(0, -1), pageShape(7, -1)]).toEqual([
      { pages: 0, size: 0 },
      { pages: 1, size: 7 },
    ]);
  });

  it("should record ours less the host's per field, negative when the host counted more", () => {
    expect(
      difference(
        { paymentCount: 4, paymentMinor: '6500', refundCount: 0, refundMinor: '0', voidCount: 1, voidMinor: '1000' },
        { paymentCount: 5, paymentMinor: '99999999999999999', refundCount: 0, refundMinor: '0', voidCount: 1, voidMinor: '1000' },
      ),
    ).toEqual({ paymentCount: -1, paymentMinor: '-99999999999993499', refundCount: 0, refundMinor: '0', voidCount: 0, voidMinor: '0' });
  });
});
