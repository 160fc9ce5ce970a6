import fc from 'fast-check';
import { approvedSale, declinedSale, terminal, updated } from '../../test/factories';
import { GatewayTranStatus, minorToDecimal } from '@app/contracts';
import { orderFromTransaction } from './order-from-transaction';
import { receiptTime, renderReceipt } from './receipt';

function receiptOf(merchantName: string, merchantAddr: string | null = null) {
  const { order, actions } = orderFromTransaction(updated({ ...approvedSale({ terminal: terminal({ merchantName }), minor: 1250 }), merchantAddr }, 1, 'g'));
  return renderReceipt({ ...order, actions: actions.map((action, id) => ({ ...action, id })) });
}

describe('receiptTime', () => {
  it("should print the merchant's wall clock with the zone and its offset named, for any instant and zone", () => {
    const zones = ['Asia/Kuala_Lumpur', 'Asia/Kolkata', 'America/New_York', 'Europe/London', 'Pacific/Chatham', 'Australia/Adelaide'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (instant, zone) => {
          const printed = receiptTime(instant, zone);
          const match = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([A-Za-z_/]+) \(UTC([+-])(\d\d):(\d\d)\)$/.exec(printed);
          expect(match).not.toBeNull();
          const [, y, mo, d, h, mi, s, named, sign, oh, om] = match!;
          expect(named).toBe(zone);
          // The wall clock less its offset is the instant (to the second).
          const offsetMs = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
          expect(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) - offsetMs).toBe(Math.floor(instant.getTime() / 1000) * 1000);
        },
      ),
    );
  });

  it('should print UTC when the order carries no zone, or one this runtime does not know', () => {
    const instant = new Date(Date.UTC(2026, 0, 31, 8, 15));
    expect(receiptTime(instant, null)).toBe('2026-01-31 08:15:00 UTC');
    expect(receiptTime(instant, 'UTC')).toBe('2026-01-31 08:15:00 UTC');
    expect(receiptTime(instant, 'Mars/Olympus_Mons')).toBe('2026-01-31 08:15:00 UTC');
    expect(receiptTime(instant, 'Asia/Kuala_Lumpur')).toBe('2026-01-31 16:15:00 Asia/Kuala_Lumpur (UTC+08:00)');
  });
});

describe('renderReceipt', () => {
  it('should never let a merchant name or address become markup, nor break a header or a line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 128 }), fc.string({ maxLength: 200 }), (name, address) => {
        const receipt = receiptOf(`<b>${name}`, `${address}<script>`);
        expect(receipt.html).not.toMatch(/<b>|<script>/);
        expect(receipt.subject).not.toMatch(/[\r\n]/);
        for (const line of receipt.text.split('\n')) expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      }),
    );
  });

  it('should label the cryptogram an ARQC (what 9F27 said of it), never a TC', () => {
    const receipt = receiptOf('Shop');
    expect(receipt.text).toMatch(/^ARQC {2,}[0-9A-F]{16}$/m);
    expect(receipt.text).not.toMatch(/^TC /m);
  });

  it('should show the amount in the currency exponent and the card masked, never more of it', () => {
    const receipt = receiptOf('Shop');
    expect(receipt.subject).toBe('Receipt from Shop: SALE APPROVED MYR 12.50');
    expect(receipt.text).toMatch(/^Card {2,}VISA 476173\*{6}0119$/m);
    expect(receipt.html).toContain('476173******0119');
  });

  /** An approved order's sums as the gateway keeps them: captured ≤ approved (a SALE captures all), refunded ≤ captured, and a status they allow. */
  const approvedOrder = fc
    .record({
      tranType: fc.constantFrom('SALE' as const, 'AUTH' as const),
      approved: fc.integer({ min: 1, max: 1_000_000 }),
      captureShare: fc.double({ min: 0, max: 1, noNaN: true }),
      refundShare: fc.double({ min: 0, max: 1, noNaN: true }),
      pick: fc.nat(),
    })
    .map(({ tranType, approved, captureShare, refundShare, pick }) => {
      const captured = tranType === 'SALE' ? approved : Math.floor(approved * captureShare);
      const refunded = Math.floor(captured * refundShare);
      const statuses: GatewayTranStatus[] =
        captured === 0 ? ['APPROVED', 'VOIDED', 'CLOSED'] : refunded === captured ? ['REFUNDED'] : refunded === 0 ? ['APPROVED', 'VOIDED'] : ['APPROVED'];
      return { tranType, approved, captured, refunded, tranStatus: statuses[pick % statuses.length] };
    });

  function receiptOfSums(sums: { tranType: 'SALE' | 'AUTH'; approved: number; captured: number; refunded: number; tranStatus: GatewayTranStatus }) {
    const { order, actions } = orderFromTransaction(
      updated(approvedSale({ terminal: terminal({ merchantName: 'Shop' }), minor: sums.approved, tranType: sums.tranType }), 1, 'g'),
    );
    return renderReceipt({
      ...order,
      tranStatus: sums.tranStatus,
      capturedMinor: String(sums.captured),
      refundedMinor: String(sums.refunded),
      actions: actions.map((action, id) => ({ ...action, id })),
    });
  }

  const myr = (minor: number) => `MYR ${minorToDecimal(String(minor), 2)}`;

  it('should head with what was charged and total what was charged less what was refunded, nothing once voided or only held', () => {
    fc.assert(
      fc.property(approvedOrder, (sums) => {
        const receipt = receiptOfSums(sums);

        const charged = sums.tranStatus === 'VOIDED' ? 0 : sums.captured - sums.refunded;
        const headline = sums.captured > 0 ? sums.captured : sums.approved;
        expect(receipt.subject).toBe(`Receipt from Shop: ${sums.tranType} ${sums.tranStatus} ${myr(headline)}`);
        expect(receipt.text).toMatch(new RegExp(`^Total charged {2,}${myr(charged)}$`, 'm'));
        if (sums.refunded > 0) expect(receipt.text).toMatch(new RegExp(`^Refunded {2,}${myr(sums.refunded)}$`, 'm'));
        else expect(receipt.text).not.toMatch(/^Refunded/m);
        if (sums.tranType === 'AUTH') expect(receipt.text).toMatch(new RegExp(`^Authorised {2,}${myr(sums.approved)}$`, 'm'));
        if (sums.tranStatus === 'VOIDED') expect(receipt.text).toMatch(new RegExp(`^Voided {2,}${myr(headline)}$`, 'm'));
      }),
    );
  });

  it('should show a partly captured authorisation as what was captured, beside what was authorised', () => {
    const receipt = receiptOfSums({ tranType: 'AUTH', approved: 5000, captured: 3000, refunded: 0, tranStatus: 'APPROVED' });

    expect(receipt.subject).toBe('Receipt from Shop: AUTH APPROVED MYR 30.00');
    expect(receipt.text).toMatch(/^Authorised {2,}MYR 50\.00$/m);
    expect(receipt.text).toMatch(/^Captured {2,}MYR 30\.00$/m);
    expect(receipt.text).toMatch(/^Total charged {2,}MYR 30\.00$/m);
  });

  it('should show what a declined sale asked, and nothing charged', () => {
    const { order, actions } = orderFromTransaction(updated(declinedSale({ minor: 1051 }), 1, 'g'));
    const receipt = renderReceipt({ ...order, actions: actions.map((action, id) => ({ ...action, id })) });

    expect(receipt.subject).toMatch(/: SALE DECLINED MYR 10\.51$/);
    expect(receipt.text).not.toMatch(/^Total charged/m);
  });
});
