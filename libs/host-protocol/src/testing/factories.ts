import {
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostMerchantV1,
  HostMessageFormat,
  HostNetworkRequestV1,
  HostOriginalV1,
  HostSettleRequestV1,
  HostTargetV1,
  HostTotalsV1,
} from '@app/contracts';
import { encodeTlv, TlvItem } from '@app/iso8583';
import { unique } from '@app/testing';
import { WireContext } from '../dialect';

/**
 * Test data for the host dialects and the simulator (not exported from the lib's index). The
 * card is a Visa test card; none of these values is a real account.
 */
export const TEST_PAN = '4761739001010119';
export const TEST_TRACK2_HEX = '4761739001010119D25122011758928889F';

let sequence = 0;
/**
 * A fresh terminal id, always the full 8 characters of field 41 (a shorter one comes back
 * space-padded from the wire and no longer equals what the test sent), so that each test has
 * books of its own on the simulator.
 */
export function uniqueTid(): string {
  sequence += 1;
  return `T${String(process.pid % 1000).padStart(3, '0')}${String(sequence % 10_000).padStart(4, '0')}`;
}

export function cardTlvItems(overrides: { pan?: string | null; track2Hex?: string | null; extra?: TlvItem[] } = {}): TlvItem[] {
  const items: TlvItem[] = [];
  const pan = overrides.pan === undefined ? TEST_PAN : overrides.pan;
  const track2 = overrides.track2Hex === undefined ? TEST_TRACK2_HEX : overrides.track2Hex;
  if (pan !== null) items.push({ tag: '5A', value: Buffer.from(pan.length % 2 === 1 ? `${pan}F` : pan, 'hex') });
  if (track2 !== null) items.push({ tag: '57', value: Buffer.from(track2.length % 2 === 1 ? `${track2}F` : track2, 'hex') });
  items.push(
    { tag: '5F20', value: Buffer.from('CARDHOLDER/TEST', 'latin1') },
    { tag: '5F24', value: Buffer.from('251231', 'hex') },
    { tag: '5F34', value: Buffer.from('01', 'hex') },
    { tag: '82', value: Buffer.from('2000', 'hex') },
    { tag: '84', value: Buffer.from('A0000000031010', 'hex') },
    { tag: '95', value: Buffer.from('0000000000', 'hex') },
    { tag: '9A', value: Buffer.from('250115', 'hex') },
    { tag: '9C', value: Buffer.from('00', 'hex') },
    { tag: '5F2A', value: Buffer.from('0504', 'hex') },
    { tag: '9F02', value: Buffer.from('000000001000', 'hex') },
    { tag: '9F10', value: Buffer.from('06010A03A00000', 'hex') },
    { tag: '9F1A', value: Buffer.from('0504', 'hex') },
    { tag: '9F26', value: Buffer.from('1122334455667788', 'hex') },
    { tag: '9F27', value: Buffer.from('80', 'hex') },
    { tag: '9F36', value: Buffer.from('0001', 'hex') },
    { tag: '9F37', value: Buffer.from('A1B2C3D4', 'hex') },
    { tag: '9F6B', value: Buffer.from(TEST_TRACK2_HEX, 'hex') },
    ...(overrides.extra ?? []),
  );
  return items;
}

export function cardTlvHex(overrides: Parameters<typeof cardTlvItems>[0] = {}): string {
  return encodeTlv(cardTlvItems(overrides)).toString('hex').toUpperCase();
}

export function target(overrides: Partial<HostTargetV1> = {}): HostTargetV1 {
  return { hostMessageFormat: 'ISO8583', connUrl: null, acptId: 'acpt_test', mid: 'MERCHANT000001', tid: uniqueTid(), ...overrides };
}

/** A merchant in Kuala Lumpur (UTC+8, no DST): its local date runs a day ahead of UTC from 16:00 to 24:00 UTC. */
export function merchant(overrides: Partial<HostMerchantV1> = {}): HostMerchantV1 {
  return { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814', ...overrides };
}

let stan = 0;
/** A wire context with a fresh STAN; times fixed, so messages are reproducible. */
export function wireContext(overrides: Partial<WireContext> = {}): WireContext {
  stan = (stan % 999_999) + 1;
  return { stan: String(stan).padStart(6, '0'), transmittedAt: '0115103000', localTime: '103000', localDate: '0115', ...overrides };
}

export function authorizeRequest(
  overrides: {
    kind?: 'SALE' | 'PREAUTH';
    minor?: string;
    currency?: string;
    emvTlv?: string;
    target?: HostTargetV1;
    format?: HostMessageFormat;
    merchant?: HostMerchantV1;
  } = {},
): HostAuthorizeRequestV1 {
  return {
    requestId: `req-${unique()}`,
    target: overrides.target ?? target({ hostMessageFormat: overrides.format ?? 'ISO8583' }),
    kind: overrides.kind ?? 'SALE',
    amount: { minor: overrides.minor ?? '1000', currency: overrides.currency ?? '504' },
    card: { emvTlv: overrides.emvTlv ?? cardTlvHex(), entryMode: 'NFC' },
    merchant: overrides.merchant ?? merchant(),
  };
}

/** The original a follow-up names, from what the connector sent and what the host answered. */
export function original(
  sent: { mti: string; context: WireContext },
  answer: { rrn: string | null; approvalCode: string | null } = { rrn: null, approvalCode: null },
  kind?: HostOriginalV1['kind'],
): HostOriginalV1 {
  return {
    mti: sent.mti,
    stan: sent.context.stan,
    transmittedAt: sent.context.transmittedAt,
    rrn: answer.rrn,
    approvalCode: answer.approvalCode,
    ...(kind !== undefined ? { kind } : {}),
  };
}

export function followUpRequest(
  targetOf: HostTargetV1,
  originalOf: HostOriginalV1,
  minor = '1000',
  currency = '504',
  merchantOf: HostMerchantV1 = merchant(),
): HostFollowUpRequestV1 {
  return { requestId: `req-${unique()}`, target: targetOf, amount: { minor, currency }, original: originalOf, merchant: merchantOf };
}

export function settleRequest(
  targetOf: HostTargetV1,
  totals: HostTotalsV1,
  batchNo = '000001',
  currency = '504',
  merchantOf: HostMerchantV1 = merchant(),
): HostSettleRequestV1 {
  return { requestId: `req-${unique()}`, target: targetOf, batchNo, currency, totals, merchant: merchantOf };
}

export function networkRequest(targetOf: HostTargetV1): HostNetworkRequestV1 {
  return { requestId: `req-${unique()}`, target: targetOf };
}
