import { decodeContract, HostOriginalV1 } from '@app/contracts';
import fc from 'fast-check';
import { hostOriginalOf } from './host-reference';
import { testAction } from './testing/test-transactions';

/**
 * A follow-up names its original by the host's own references (review r16c M3): an RRN a host
 * padded, right-justified or wrote with spaces inside was left out of field 37, so the refund or
 * batch upload went without it.
 */
describe('hostOriginalOf: the host references a follow-up sends back', () => {
  const AN = fc.constantFrom(...'ABCXYZabcxyz0123456789 '.split(''));
  /** Field 37 (an 12) as a host writes it, and as the ISO reader keeps it: its trailing pad cut. */
  const rrnRead = fc
    .array(AN, { minLength: 12, maxLength: 12 })
    .map((chars) => chars.join('').replace(/ +$/, ''))
    .filter((text) => text !== '');
  const approvalRead = fc.array(AN, { minLength: 6, maxLength: 6 }).map((chars) => chars.join('')).filter((text) => text.trim() !== '');

  it("should name every RRN and approval code the ISO reader can keep, in a form the connector's contract takes", () => {
    fc.assert(
      fc.property(rrnRead, approvalRead, (rrn, approvalCode) => {
        const action = testAction({ hostMti: '0200', hostStan: '000042', hostTransmittedAt: '1127215300', rrn, approvalCode });
        const original = hostOriginalOf(action, 'SALE');
        expect(original).toMatchObject({ rrn, approvalCode });
        expect(decodeContract(HostOriginalV1, original)).toMatchObject({ rrn, approvalCode });
      }),
    );
  });

  it("should leave out a reference field 37 or 38 cannot carry (a JSON host's longer one, other characters)", () => {
    const sent = { hostMti: '0200', hostStan: '000042', hostTransmittedAt: '1127215300' };
    expect(hostOriginalOf(testAction({ ...sent, rrn: 'ORDER-000000000042', approvalCode: 'AB-123' }), 'SALE')).toMatchObject({ rrn: null, approvalCode: null });
    expect(hostOriginalOf(testAction({ ...sent, rrn: '   ', approvalCode: '      ' }), 'SALE')).toMatchObject({ rrn: null, approvalCode: null });
  });
});
