import { HostRules } from '@app/iso8583';
import type { HostOperation } from './dialect';

/** ISO 8583:1987 field 39 codes the platform's hosts use, with the text shown to operators. */
export const RESPONSE_MESSAGES: Readonly<Record<string, string>> = {
  '00': 'Approved',
  '05': 'Do not honour',
  '08': 'Honour with identification',
  '10': 'Approved for partial amount',
  '11': 'Approved (VIP)',
  '12': 'Invalid transaction',
  '13': 'Invalid amount',
  '14': 'Invalid card number',
  '16': 'Approved, update track 3',
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

/**
 * Whether a response code approves `operation` under a format's rules: a reversal (and a void
 * sent as one, `voidAs: reversal`) is approved (acknowledged) by `reversalAcknowledgedCodes`; a
 * financial request (authorisation, void, refund, capture) by `approvalCodes`; network
 * management, reconciliation and batch upload by `00` only (1987 gives the
 * other approval codes no meaning there).
 */
export function approves(rules: HostRules, operation: HostOperation, code: string): boolean {
  switch (operation) {
    case 'reverse':
      return rules.reversalAcknowledgedCodes.includes(code);
    case 'void':
      return (rules.voidAs === 'reversal' ? rules.reversalAcknowledgedCodes : rules.approvalCodes).includes(code);
    case 'authorize':
    case 'refund':
    case 'capture':
      return rules.approvalCodes.includes(code);
    case 'settle':
    case 'batchupload':
    case 'settleclose':
    case 'signon':
    case 'echo':
    case 'keyexchange':
      return code === '00';
  }
}
