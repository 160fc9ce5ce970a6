/** Payment method codes (`docs/decisions.md`, "Enumerations"); the gateway uses the names. */
export const PAYMENT_METHODS = {
  '01': 'VISA',
  '02': 'MASTERCARD',
  '03': 'UNIONPAY',
  '04': 'AMEX',
  '05': 'JCB',
  '06': 'DISCOVER',
} as const;

export type PaymentMethodCode = keyof typeof PAYMENT_METHODS;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[PaymentMethodCode];

export const PAYMENT_METHOD_CODES = Object.keys(PAYMENT_METHODS) as PaymentMethodCode[];

/** Display names for responses that show one (payment config `displayName`). */
const DISPLAY_NAMES: Record<PaymentMethodCode, string> = {
  '01': 'Visa',
  '02': 'Mastercard',
  '03': 'UnionPay',
  '04': 'American Express',
  '05': 'JCB',
  '06': 'Discover',
};

export function isPaymentMethodCode(value: unknown): value is PaymentMethodCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PAYMENT_METHODS, value);
}

export function paymentMethodName(code: PaymentMethodCode): PaymentMethodName {
  return PAYMENT_METHODS[code];
}

export function paymentMethodDisplayName(code: PaymentMethodCode): string {
  return DISPLAY_NAMES[code];
}

/** Accepts a code (`01`) or a name (`VISA`, any case) and answers the code. */
export function paymentMethodCodeOf(codeOrName: string): PaymentMethodCode | undefined {
  if (isPaymentMethodCode(codeOrName)) return codeOrName;
  const upper = codeOrName.toUpperCase();
  return PAYMENT_METHOD_CODES.find((code) => PAYMENT_METHODS[code] === upper);
}
