import { unique } from '@app/testing';
import { HostMessageFormat } from '@app/contracts';

/** EMV data of a test card (tags 5A PAN 4761739001010010, 5F24 expiry, 9F02 amount); contactless. */
export const TEST_EMV_TLV = '5A0847617390010100105F24032712319F0206000000001000';

export const requestIdOf = (prefix = 'req') => `${prefix}_${unique()}`;

export interface TargetOverrides {
  hostMessageFormat?: HostMessageFormat;
  connUrl?: string | null;
  tid?: string;
  mid?: string;
  /** Field 32 (the acceptance's acqInstId); absent by default. */
  acquirerId?: string;
}

export function targetOf(overrides: TargetOverrides = {}) {
  return {
    hostMessageFormat: overrides.hostMessageFormat ?? 'ISO8583',
    connUrl: overrides.connUrl === undefined ? null : overrides.connUrl,
    acptId: 'acpt_test1',
    mid: overrides.mid ?? 'MID000000000001',
    tid: overrides.tid ?? 'TID00001',
    ...(overrides.acquirerId === undefined ? {} : { acquirerId: overrides.acquirerId }),
  };
}

/** The card acceptor every payload names: Kuala Lumpur (UTC+8), so fields 12/13 differ from UTC for 8 hours a day. */
export function merchantOf(overrides: Record<string, unknown> = {}) {
  return { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814', ...overrides };
}

/** A `host.authorize.v1` payload (SALE) for `minor` units of MYR. */
export function authorizePayload(minor: string, target: TargetOverrides = {}, extra: Record<string, unknown> = {}) {
  return {
    requestId: requestIdOf('auth'),
    target: targetOf(target),
    kind: 'SALE',
    amount: { minor, currency: '458' },
    card: { emvTlv: TEST_EMV_TLV, entryMode: 'NFC' },
    merchant: merchantOf(),
    ...extra,
  };
}

/** A follow-up payload (reverse, void, refund, capture) naming an earlier transaction. */
export function followUpPayload(minor: string, target: TargetOverrides = {}, extra: Record<string, unknown> = {}) {
  return {
    requestId: requestIdOf('fu'),
    target: targetOf(target),
    amount: { minor, currency: '458' },
    original: { mti: '0200', stan: '000123', transmittedAt: '0102030405', rrn: '000000123456', approvalCode: 'A1B2C3' },
    merchant: merchantOf(),
    ...extra,
  };
}

export function settlePayload(target: TargetOverrides = {}) {
  return {
    requestId: requestIdOf('settle'),
    target: targetOf(target),
    batchNo: '000001',
    currency: '458',
    totals: { saleCount: 2, saleMinor: '3000', refundCount: 1, refundMinor: '500' },
    merchant: merchantOf(),
  };
}

export function networkPayload(target: TargetOverrides = {}, extra: Record<string, unknown> = {}) {
  return { requestId: requestIdOf('net'), target: targetOf(target), ...extra };
}
