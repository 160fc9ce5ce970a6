import { PaymentMethodName } from '@app/contracts';

/** Registered application provider ids (the first 5 bytes of an AID) and the payment method each names. */
const METHOD_OF_RID: ReadonlyArray<readonly [string, PaymentMethodName]> = [
  ['A000000003', 'VISA'],
  ['A000000004', 'MASTERCARD'],
  ['A000000333', 'UNIONPAY'],
  ['A000000025', 'AMEX'],
  ['A000000065', 'JCB'],
  ['A000000152', 'DISCOVER'],
];

/** The payment method of an AID (hex, any case) by its registered provider id; undefined for one we do not route. */
export function paymentMethodOfAid(aid: string): PaymentMethodName | undefined {
  const upper = aid.toUpperCase();
  return METHOD_OF_RID.find(([rid]) => upper.startsWith(rid))?.[1];
}
