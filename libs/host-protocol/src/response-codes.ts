/** ISO 8583:1987 field 39 codes the platform's hosts use, with the text shown to operators. */
export const RESPONSE_MESSAGES: Readonly<Record<string, string>> = {
  '00': 'Approved',
  '05': 'Do not honour',
  '12': 'Invalid transaction',
  '13': 'Invalid amount',
  '14': 'Invalid card number',
  '25': 'Unable to locate original transaction',
  '30': 'Format error',
  '51': 'Insufficient funds',
  '54': 'Expired card',
  '55': 'Incorrect PIN',
  '58': 'Transaction not permitted to terminal',
  '91': 'Issuer or switch inoperative',
  '94': 'Duplicate transmission',
  '95': 'Reconcile error',
  '96': 'System malfunction',
};

/** The operator text of a response code; `Response code NN` for codes the table does not know. */
export function responseMessage(code: string): string {
  return RESPONSE_MESSAGES[code] ?? `Response code ${code}`;
}
