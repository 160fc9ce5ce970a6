/**
 * The test amounts, the same in the connector's `MOCK` format and in the host simulator
 * (README, "Test amounts"): minor units ending in 51 are declined with 51 (insufficient funds),
 * ending in 91 get no answer at all (the caller sees a timeout and a reversal), anything else is
 * approved with 00.
 */
export type TestAmountOutcome = 'APPROVE' | 'DECLINE' | 'NO_ANSWER';

export function testAmountOutcome(minor: string | number | bigint): TestAmountOutcome {
  const digits = String(minor).padStart(2, '0');
  const lastTwo = digits.slice(-2);
  if (lastTwo === '51') return 'DECLINE';
  if (lastTwo === '91') return 'NO_ANSWER';
  return 'APPROVE';
}

/** The response code and text the test amounts produce. */
export const TEST_RESPONSE = {
  APPROVE: { code: '00', message: 'Approved' },
  DECLINE: { code: '51', message: 'Insufficient funds' },
} as const;
