/**
 * Host message formats (`docs/decisions.md`, "Host formats" and "One list of host formats"):
 * the one list every context validates against.
 */

/** The ISO 8583 family, spoken over TCP; each has a message spec of the same name in `@app/iso8583`. */
export const ISO_HOST_FORMATS = ['ISO8583', 'S2M_8583', 'MASARAT_8583', 'CASHPLUS_8583'] as const;
export type IsoHostFormat = (typeof ISO_HOST_FORMATS)[number];

/** The JSON family, spoken over HTTP. */
export const JSON_HOST_FORMATS = ['MPGS_AP', 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'] as const;
export type JsonHostFormat = (typeof JSON_HOST_FORMATS)[number];

/** Every format a host connector speaks (`MOCK` in process), so what a gateway acceptance can name. */
export const HOST_MESSAGE_FORMATS = ['MOCK', ...ISO_HOST_FORMATS, ...JSON_HOST_FORMATS] as const;
export type HostMessageFormat = (typeof HOST_MESSAGE_FORMATS)[number];

/** An acquirer profile's `connMessageFormat` that means "through this platform's own gateway, in enablerMsgFormat". */
export const SVC_ENABLER = 'SVC_ENABLER';

/** What an acquirer profile's `connMessageFormat` may name: a host format, or {@link SVC_ENABLER}. */
export const ACQUIRER_MESSAGE_FORMATS = [...HOST_MESSAGE_FORMATS, SVC_ENABLER] as const;
export type AcquirerMessageFormat = (typeof ACQUIRER_MESSAGE_FORMATS)[number];

/**
 * The formats whose requests carry the merchant's local date and time (ISO 8583 fields 12 and 13;
 * POMELO_JSON, EZ_AIO and EZ_WALLET's local time and date): a merchant without a time zone would
 * be sent another clock's. MPGS_AP sends none; MOCK is answered in process. Checked against what
 * each dialect builds (libs/host-protocol local-time.spec.ts).
 */
export const LOCAL_TIME_FORMATS: readonly HostMessageFormat[] = [...ISO_HOST_FORMATS, 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'];

export function sendsLocalTime(format: string): boolean {
  return (LOCAL_TIME_FORMATS as readonly string[]).includes(format);
}

export function isHostMessageFormat(format: string): format is HostMessageFormat {
  return (HOST_MESSAGE_FORMATS as readonly string[]).includes(format);
}

export function isIsoHostFormat(format: string): format is IsoHostFormat {
  return (ISO_HOST_FORMATS as readonly string[]).includes(format);
}

export function isJsonHostFormat(format: string): format is JsonHostFormat {
  return (JSON_HOST_FORMATS as readonly string[]).includes(format);
}

/**
 * Card acceptor id (field 42) and terminal id (field 41) as hosts take them. A MID needs one letter
 * or digit: one of spaces only is all padding on the wire (ans 15 is space-filled), no MID at all.
 */
export const HOST_MID_PATTERN = /^(?=.*[A-Za-z0-9])[A-Za-z0-9 ]{1,15}$/;
export const HOST_TID_PATTERN = /^[A-Za-z0-9]{1,8}$/;
/** How a refusal of either names the rule (`$property` is class-validator's placeholder for the field). */
export const HOST_MID_RULE = 'must be 1 to 15 letters, digits or spaces, not spaces only (field 42)';
export const HOST_TID_RULE = 'must be 1 to 8 letters or digits (field 41)';
/** Acquiring institution id (field 32, n..11). */
export const HOST_ACQUIRER_ID_PATTERN = /^[0-9]{1,11}$/;

/** A gateway namespace (`GATEWAY_NAMESPACE`): one URL path segment, as the gateway serves it and phones are told it. */
export const GATEWAY_NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
