/** How the cardholder was verified, as the gateway shows it (`cvmPerformed`). */
export const CVM_PERFORMED = ['NO_CVM', 'SIGNATURE', 'ONLINE_PIN', 'CDCVM'] as const;
export type CvmPerformed = (typeof CVM_PERFORMED)[number];

/**
 * `cvmPerformed` from tag 9F34 (CVM results: method, condition, result; EMV Book 3 annex C3) and,
 * when the card gave it, 9F6C (card transaction qualifiers: Visa reports a consumer-device CVM in
 * byte 2, bit 8):
 * - 02 enciphered PIN verified online: ONLINE_PIN;
 * - 1E signature (paper): SIGNATURE;
 * - 01, 03, 04, 05 (PIN verified by the ICC, alone or with signature): CDCVM, which is how a
 *   contactless kernel reports the cardholder verified on their own device (EMV Book C-2);
 * - 1F no CVM required, 3F no CVM performed, 00 fail, anything else, or a CVM whose result
 *   byte says failed (01): NO_CVM.
 * The seventh bit of the method byte (apply the next rule on failure) is ignored.
 */
export function cvmPerformedOf(cvmResults: Buffer, cardQualifiers?: Buffer): CvmPerformed {
  if (cardQualifiers && cardQualifiers.length >= 2 && (cardQualifiers[1] & 0x80) !== 0) return 'CDCVM';
  if (cvmResults.length !== 3 || cvmResults[2] === 0x01) return 'NO_CVM';
  switch (cvmResults[0] & 0x3f) {
    case 0x02:
      return 'ONLINE_PIN';
    case 0x1e:
      return 'SIGNATURE';
    case 0x01:
    case 0x03:
    case 0x04:
    case 0x05:
      return 'CDCVM';
    default:
      return 'NO_CVM';
  }
}
