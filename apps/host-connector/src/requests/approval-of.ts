import { HostAmountV1 } from '@app/contracts';
import { HostAnswer } from '@app/host-protocol';

/**
 * The amount a reversal of an approval undoes: what the host approved when its answer names an
 * amount (a partial approval, more than asked, another currency; in the currency asked when the
 * answer names none), else the amount asked. An approval of 0 booked nothing to name, so its
 * reversal names the amount asked. The timely path (an approval it cannot show) and a late
 * approval ({@link LateAnswers}) reverse through here.
 */
export function bookedAmountOf(requested: HostAmountV1, answer: HostAnswer): HostAmountV1 {
  const named = answer.approvedAmount ?? answer.answeredAmount;
  if (named === undefined || (named.minor !== null && BigInt(named.minor) === 0n)) return requested;
  return { minor: named.minor ?? requested.minor, currency: named.currency ?? requested.currency };
}

/** What the host approved of the amount asked. `unusable`: an approval that cannot be shown as money taken. */
export type ApprovalOf = { kind: 'full' } | { kind: 'partial'; amount: HostAmountV1 } | { kind: 'unusable'; reason: string };
export const FULL: ApprovalOf = { kind: 'full' };

/**
 * What an approval approved of the amount asked (`requested`; undefined for a request without
 * one, always approved in full): all of it (the answer names no amount, or exactly the one asked),
 * a part (the format's partial-approval code naming less, in the currency asked when it names
 * none), or nothing we can honour: a partial approval of zero, of more than asked, of an amount in
 * another currency or of an unnamed amount, and any other approval naming another amount or
 * currency than asked. Those say neither that the card was charged what the merchant asked nor how
 * much: the platform shows no amount the host did not approve.
 */
export function approvalOf(requested: HostAmountV1 | undefined, answer: HostAnswer): ApprovalOf {
  if (requested === undefined) return FULL;
  if (answer.approvedAmountUnnamed) return { kind: 'unusable', reason: `approved part (${answer.hostRespCode}) of the ${requested.minor} asked without naming how much` };
  const answered = answer.answeredAmount;
  if (answered !== undefined) {
    const minor = answered.minor ?? requested.minor;
    const currency = answered.currency ?? requested.currency;
    if (currency !== requested.currency) return { kind: 'unusable', reason: `approved (${answer.hostRespCode}) ${minor} in currency ${currency}, not the ${requested.currency} asked` };
    if (BigInt(minor) !== BigInt(requested.minor)) return { kind: 'unusable', reason: `approved (${answer.hostRespCode}, not a partial approval) ${minor}, not the ${requested.minor} asked` };
  }
  if (answer.approvedAmount === undefined) return FULL;
  const approved = { minor: answer.approvedAmount.minor, currency: answer.approvedAmount.currency ?? requested.currency };
  if (approved.currency !== requested.currency) return { kind: 'unusable', reason: `approved ${approved.minor} in currency ${approved.currency}, not the ${requested.currency} asked` };
  if (BigInt(approved.minor) === 0n) return { kind: 'unusable', reason: `approved an amount of 0 of the ${requested.minor} asked` };
  if (BigInt(approved.minor) > BigInt(requested.minor)) return { kind: 'unusable', reason: `approved ${approved.minor}, more than the ${requested.minor} asked` };
  if (BigInt(approved.minor) === BigInt(requested.minor)) return FULL;
  return { kind: 'partial', amount: approved };
}
