import fc from 'fast-check';
import { approvedSale, terminal, updated } from '../../test/factories';
import { orderFromTransaction } from './order-from-transaction';
import { renderReceipt } from './receipt';

function receiptOf(merchantName: string, merchantAddr: string | null = null) {
  const { order, actions } = orderFromTransaction(updated({ ...approvedSale({ terminal: terminal({ merchantName }), minor: 1250 }), merchantAddr }, 1, 'g'));
  return renderReceipt({ ...order, actions: actions.map((action, id) => ({ ...action, id })) });
}

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

  it('should show the amount in the currency exponent and the card masked, never more of it', () => {
    const receipt = receiptOf('Shop');
    expect(receipt.subject).toBe('Receipt from Shop: SALE APPROVED MYR 12.50');
    expect(receipt.text).toMatch(/^Card {2,}VISA 476173\*{6}0119$/m);
    expect(receipt.html).toContain('476173******0119');
  });
});
