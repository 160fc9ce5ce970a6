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

/**
 * The acquirer parameters the gateway reads from an acceptance's `extraParams` and puts on the
 * wire (docs/decisions.md, "Merchant data reaches the host"): `acqInstId`, the acquiring
 * institution id (field 32), and `subMchDba`, a payment facilitator's sub-merchant (named in field
 * 43). Each with the rule a value must meet to reach the host, and what it is refused with: one
 * rule for merchant-management (acquirer profiles, devices) and the gateway's profile API.
 */
export const ACCEPTANCE_PARAM_RULES: Readonly<Record<string, readonly [RegExp, string]>> = {
  acqInstId: [HOST_ACQUIRER_ID_PATTERN, 'must be 1 to 11 digits (the acquiring institution id, field 32)'],
  subMchDba: [/^(?=.*\S)[^\p{Cc}]{1,64}$/u, 'must be 1 to 64 characters without control characters, not blank (the sub-merchant named in field 43)'],
};

/** `<path>.<name> <rule>` for the first acceptance parameter of `params` that breaks its rule, null when none does; other keys are not looked at. */
export function acceptanceParamFailure(params: Record<string, unknown> | null | undefined, path: string): string | null {
  for (const [name, [pattern, rule]] of Object.entries(ACCEPTANCE_PARAM_RULES)) {
    const value = params?.[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !pattern.test(value)) return `${path}.${name} ${rule}`;
  }
  return null;
}

/** A gateway namespace (`GATEWAY_NAMESPACE`): one URL path segment, as the gateway serves it and phones are told it. */
export const GATEWAY_NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
