/** What the gateway keeps of a card number: BIN, last four and the two around stars. Never the number itself. */
export interface MaskedAccount {
  /** `411111******1111`: the BIN, a star for each hidden digit, the last four. */
  accountMasked: string;
  /** The first six digits. */
  accountBin: string;
  accountLast4: string;
}

/** Masks a PAN of 12 to 19 digits (the card-data reader checked it): BIN 6, stars, last 4. */
export function maskAccount(pan: string): MaskedAccount {
  if (!/^[0-9]{12,19}$/.test(pan)) throw new Error('maskAccount takes a PAN of 12 to 19 digits');
  const accountBin = pan.slice(0, 6);
  const accountLast4 = pan.slice(-4);
  return { accountMasked: `${accountBin}${'*'.repeat(pan.length - 10)}${accountLast4}`, accountBin, accountLast4 };
}
