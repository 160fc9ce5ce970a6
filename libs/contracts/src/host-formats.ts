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
 * Text as a host gets it in a character field (`ans`, field 43): printable ASCII only, accents
 * dropped (NFKD, combining marks removed: "Café" -> "Cafe", fullwidth "ＡＢ" -> "AB"), anything
 * else a space (other scripts, symbols, zero-width and control characters), runs of spaces one,
 * trimmed. What every free text reaching field 43 is checked against ({@link carriesHostText}).
 */
export function hostText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Whether `value` still says something once a host gets it ({@link hostText}): at least one letter or digit. */
export function carriesHostText(value: string): boolean {
  return /[A-Za-z0-9]/.test(hostText(value));
}

/** How a free text that reaches field 43 is refused when {@link carriesHostText} fails. */
export const HOST_TEXT_RULE =
  'must carry at least one Latin letter or digit once reduced to the printable ASCII hosts get in field 43 (accents dropped, any other character a space)';

/** A host field's rule: a pattern, how a refusal words it, and a check of what the host will get (after {@link hostText}) when the pattern alone cannot say. */
export type HostFieldRule = readonly [pattern: RegExp, rule: string, sent?: (value: string) => boolean];

/** Whether `value` meets `rule`: its pattern and, when it has one, the check of what is sent. */
export function meetsHostFieldRule(rule: HostFieldRule, value: string): boolean {
  return rule[0].test(value) && (rule[2] === undefined || rule[2](value));
}

/**
 * The acquirer parameters the gateway reads from an acceptance's `extraParams` and puts on the
 * wire (docs/decisions.md, "Merchant data reaches the host"): `acqInstId`, the acquiring
 * institution id (field 32), and `subMchDba`, a payment facilitator's sub-merchant (named in field
 * 43). Each with the rule a value must meet to reach the host, and what it is refused with: one
 * rule for merchant-management (acquirer profiles, devices) and the gateway's profile API.
 */
export const ACCEPTANCE_PARAM_RULES: Readonly<Record<string, HostFieldRule>> = {
  acqInstId: [HOST_ACQUIRER_ID_PATTERN, 'must be 1 to 11 digits (the acquiring institution id, field 32)'],
  // Checked as the host will get it: "北京饭店", zero-width or combining characters alone would reach field 43 blank.
  subMchDba: [
    /^(?=.*\S)[^\p{Cc}]{1,64}$/u,
    `must be 1 to 64 characters without control characters, and ${HOST_TEXT_RULE.replace(/^must /, '')}`,
    carriesHostText,
  ],
};

/** `<path>.<name> <rule>` for the first acceptance parameter of `params` that breaks its rule, null when none does; other keys are not looked at. */
export function acceptanceParamFailure(params: Record<string, unknown> | null | undefined, path: string): string | null {
  for (const [name, rule] of Object.entries(ACCEPTANCE_PARAM_RULES)) {
    const value = params?.[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !meetsHostFieldRule(rule, value)) return `${path}.${name} ${rule[1]}`;
  }
  return null;
}

/** A gateway namespace (`GATEWAY_NAMESPACE`): one URL path segment, as the gateway serves it and phones are told it. */
export const GATEWAY_NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
