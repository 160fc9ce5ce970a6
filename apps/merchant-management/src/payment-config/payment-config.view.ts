import { BindingRecord } from '../activation-profile/binding-record';

/** What the payment-config service answers about one binding: the binding and its merchant's mchId. */
export interface PaymentConfigView {
  mchId: string;
  binding: BindingRecord;
}
